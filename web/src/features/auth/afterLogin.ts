/** Where a successful sign-in lands (spec: the token page). */
export const AFTER_LOGIN_PATH = '/token';
