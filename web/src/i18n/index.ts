import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { StorageKey } from '../lib/storage';
import type { LanguageBundle } from './namespaces';

export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

// Each language comes in two chunks, fetched when first needed: the namespaces of the signed-out pages (shell, home,
// sign-in with its second step, setup) and those of the console. A visitor's first load carries one language's small part, not every
// string of both. zh is the source language; en has every key (the browser tests report a missing key as an error),
// so no fallback language is loaded beside the chosen one.

/** Namespaces of the signed-out pages and the shell; keep in step with the globs in zh/ and en/signed-out.ts. */
const SIGNED_OUT_NAMESPACES: readonly string[] = ['common', 'shell', 'auth', 'home', 'setup', 'identity'];
type BundlePart = 'signedOut' | 'console';

const loaders: Record<Language, Record<BundlePart, () => Promise<{ bundle: LanguageBundle }>>> = {
  zh: { signedOut: () => import('./zh/signed-out'), console: () => import('./zh/console') },
  en: { signedOut: () => import('./en/signed-out'), console: () => import('./en/console') },
};
const loaded = new Map<string, Promise<LanguageBundle>>();

function loadPart(language: Language, part: BundlePart): Promise<LanguageBundle> {
  const key = `${language}:${part}`;
  let bundle = loaded.get(key);
  if (!bundle) {
    bundle = loaders[language][part]().then((module) => module.bundle);
    loaded.set(key, bundle);
  }
  return bundle;
}

function knownLanguage(language: string): Language {
  return language === 'en' ? 'en' : 'zh';
}

/** i18next reads each namespace from its language chunk; changeLanguage waits for them before re-rendering. */
const languageChunkBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const part: BundlePart = SIGNED_OUT_NAMESPACES.includes(namespace) ? 'signedOut' : 'console';
    loadPart(knownLanguage(language), part).then(
      (bundle) => callback(null, bundle[namespace] ?? {}),
      (error: Error) => callback(error, false),
    );
  },
};

/**
 * Loads the console's namespaces in the reader's language; the signed-in pages' route loader awaits it beside the
 * page's own chunk (App.tsx), so both download in parallel.
 */
export async function loadConsoleNamespaces(): Promise<void> {
  const bundle = await loadPart(knownLanguage(i18n.language), 'console');
  await i18n.loadNamespaces(Object.keys(bundle));
}

function initialLanguage(): Language {
  const stored = localStorage.getItem(StorageKey.language);
  return stored === 'en' ? 'en' : 'zh';
}

/** Loads the reader's language (signed-out part) and starts i18next; main.tsx renders once this resolves. */
export async function initI18n(): Promise<void> {
  const language = initialLanguage();
  await i18n
    .use(languageChunkBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: [...LANGUAGES],
      fallbackLng: false,
      // A copy: i18next appends the namespaces loaded later to this array.
      ns: [...SIGNED_OUT_NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      // A missing key is a bug: report it loudly so the browser tests catch it.
      saveMissing: true,
      missingKeyHandler: (languages, namespace, key) => {
        console.error(`Missing translation ${languages.join(',')}:${namespace}:${key}`);
      },
    });
  document.documentElement.lang = i18n.language === 'en' ? 'en' : 'zh';
}

i18n.on('languageChanged', (language) => {
  localStorage.setItem(StorageKey.language, language);
  document.documentElement.lang = language === 'en' ? 'en' : 'zh';
});

export default i18n;
