/** What the import adapters share: the parsed file, the error for a file that cannot be read as a whole, and texts' line breaks. */
import type { FieldSpellings, RawRecord } from '../../core/import-plan.js';

/** What an import file holds once read: raw records (validated later, all together) and maybe a business profile. */
export interface ParsedImport {
  business?: unknown;
  records: RawRecord[];
  /** How the format names review fields and which values it accepts where they differ from ours, so errors name what the user wrote. */
  spellings?: FieldSpellings;
}

/** A problem with the file as a whole (not one record): bad JSON, wrong top-level shape, unknown CSV column. */
export class ImportFileError extends Error {
  override name = 'ImportFileError';
}

/**
 * A text with its line breaks as \n, whichever system wrote them (\r\n on Windows, a lone \r
 * on old Macs): the same review from a Windows file and from a copy saved with LF endings is
 * then the same review (its content-derived id, and no update on re-import). Anything but text
 * goes on as it is, for validation to judge.
 */
export const lineBreaksAsLf = <T>(text: T): T => (typeof text === 'string' && text.includes('\r') ? (text.replace(/\r\n?/g, '\n') as T) : text);
