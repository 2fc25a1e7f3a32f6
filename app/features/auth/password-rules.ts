// Password length rules, shared by the server's checks and the forms' limits (the hint's words are
// new-password-field.tsx's, in the reader's language).
export const minPasswordLength = 8
export const maxPasswordLength = 128
