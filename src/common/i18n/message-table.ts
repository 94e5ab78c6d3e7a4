export type Language = 'zh' | 'en';

/** One message in each supported language; `{name}` marks a parameter. */
export type MessageTable = Record<string, Record<Language, string>>;
