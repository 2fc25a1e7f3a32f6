// Kept apart so the CLI can recognise it without loading the export and import code, which only
// their own commands need.

/** A command that could not run as asked; the message says what to do. */
export class CommandError extends Error {}
