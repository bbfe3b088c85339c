/** What the import adapters share: the parsed file, and the error for a file that cannot be read as a whole. */
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
