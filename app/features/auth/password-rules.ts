// Password length rules, shared by the server's checks and the forms' hints and limits.
export const minPasswordLength = 8
export const maxPasswordLength = 128
export const passwordHint = `${minPasswordLength} to ${maxPasswordLength} characters. A few unrelated words make a strong one.`
