/** This release's version, read once from package.json: the CLI's --version and the MCP server's serverInfo state it. */
import { readFileSync } from 'node:fs';

export const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
