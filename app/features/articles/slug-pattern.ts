// What an address (slug) may hold: apart from slug.ts, so a public page that checks one does not
// load the transliteration tables that make one.

// Besides a-z and 0-9: letters without case (most scripts kept as they are), modifier letters,
// combining marks (Devanagari's vowel signs) and digits of any script.
export const keptLetter = '\\p{Lo}\\p{Lm}\\p{M}\\p{Nd}'

/** Lowercase a-z, digits and uncased letters, in words joined by single hyphens. */
export const slugPattern = new RegExp(`^[a-z0-9${keptLetter}]+(?:-[a-z0-9${keptLetter}]+)*$`, 'u')
