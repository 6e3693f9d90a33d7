/**
 * Why a saved workbook cannot be read or refreshed: one code per thing the user can do something about,
 * and a message that says what to do. The CLI prints the message as it is.
 */
export type FileProblemCode =
  | 'not-a-zip'
  | 'not-a-workbook'
  | 'encrypted'
  | 'table-missing'
  | 'protected'
  | 'locked'
  | 'too-big'
  | 'unsupported';

export class FileProblem extends Error {
  override name = 'FileProblem';
  constructor(
    readonly code: FileProblemCode,
    message: string,
  ) {
    super(message);
  }
}

export const isFileProblem = (e: unknown): e is FileProblem =>
  e instanceof Error && e.name === 'FileProblem' && typeof (e as FileProblem).code === 'string';
