// The lengths a search keeps to, shared by the server and the field in every page's header
// (kept apart from the parser so the header's script does not carry it).

/** Longer searches are refused with words, not cut: the reader should know. */
export const maxQueryLength = 200

/** Fewer letters than this suggest nothing as a reader types: two already narrow a large site. */
export const suggestFrom = 2

/** Results on a page of /search. */
export const resultsPerPage = 10
