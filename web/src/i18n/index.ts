import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { StorageKey } from '../lib/storage';

// Every namespace JSON file under zh/ and en/ is picked up; zh is the source language.
const files = import.meta.glob<{ default: Record<string, unknown> }>('./*/*.json', { eager: true });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, module] of Object.entries(files)) {
  const [, locale, file] = path.split('/');
  const namespace = file.replace(/\.json$/, '');
  resources[locale] ??= {};
  resources[locale][namespace] = module.default;
}

export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

function initialLanguage(): Language {
  const stored = localStorage.getItem(StorageKey.language);
  return stored === 'en' ? 'en' : 'zh';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'zh',
  ns: Object.keys(resources.zh ?? {}),
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  // A missing key is a bug: report it loudly so the browser tests catch it.
  saveMissing: true,
  missingKeyHandler: (languages, namespace, key) => {
    console.error(`Missing translation ${languages.join(',')}:${namespace}:${key}`);
  },
});

i18n.on('languageChanged', (language) => {
  localStorage.setItem(StorageKey.language, language);
  document.documentElement.lang = language === 'en' ? 'en' : 'zh';
});
document.documentElement.lang = i18n.language === 'en' ? 'en' : 'zh';

export default i18n;
