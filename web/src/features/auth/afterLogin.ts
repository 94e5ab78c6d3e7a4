/** Where a successful sign-in lands; the spec says /token, which takes over once that page exists. */
export const AFTER_LOGIN_PATH = '/personal';
