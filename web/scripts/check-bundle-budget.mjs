#!/usr/bin/env node
/**
 * The console's load budget, run after `vite build` (see package.json `build`): prints the gzipped JavaScript each
 * page needs on a cold load (the entry with its static imports, the page's chunk with its static imports, and the
 * larger language's translation chunks the page needs: src/i18n/<language>/signed-out.ts, plus console.ts) and
 * exits non-zero when a page is over budget, so CI fails on a regression.
 *   - the pages a signed-out visitor lands on first (home, login): at most 250 kB;
 *   - every other page: at most 400 kB.
 * Sizes are in kB of 1000 bytes, gzipped at zlib's default level as Vite's own report does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const FIRST_LOAD_BUDGET_KB = 250;
const PAGE_BUDGET_KB = 400;
const FIRST_LOAD_PAGES = new Set(['src/features/home/HomePage.tsx', 'src/features/auth/LoginPage.tsx']);
/** Pages that need only the signed-out translations (App.tsx `lazyPage`); every other page loads the console's too. */
const SIGNED_OUT_PAGES = new Set([
  ...FIRST_LOAD_PAGES,
  'src/features/auth/OAuthCallbackPage.tsx',
  'src/features/auth/RegisterPage.tsx',
  'src/features/auth/ResetConfirmPage.tsx',
  'src/features/auth/ResetPasswordPage.tsx',
  'src/features/home/AboutPage.tsx',
  'src/features/home/NotFoundPage.tsx',
  'src/features/setup/SetupPage.tsx',
]);
const LANGUAGES = ['zh', 'en'];

/** @type {Record<string, {file: string, isEntry?: boolean, isDynamicEntry?: boolean, imports?: string[]}>} */
const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8'));
const gzipSizes = new Map();

function gzippedBytes(file) {
  if (!gzipSizes.has(file)) gzipSizes.set(file, gzipSync(readFileSync(path.join(DIST, file))).length);
  return gzipSizes.get(file);
}

/** The chunk files a manifest entry loads before it runs: itself and its static imports, transitively. */
function staticClosure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
const entryFiles = staticClosure(entryKey);
const kb = (bytes) => bytes / 1000;
const total = (files) => [...files].filter((file) => file.endsWith('.js')).reduce((sum, file) => sum + gzippedBytes(file), 0);

/** The gzipped bytes a page loads in `language` beyond the entry. */
function pageBytes(key, language) {
  const files = staticClosure(key, new Set(entryFiles));
  staticClosure(`src/i18n/${language}/signed-out.ts`, files);
  if (!SIGNED_OUT_PAGES.has(key)) staticClosure(`src/i18n/${language}/console.ts`, files);
  return total(files);
}

const rows = Object.keys(manifest)
  .filter((key) => manifest[key].isDynamicEntry && /Page\.tsx$/.test(key))
  .map((key) => {
    const load = Math.max(...LANGUAGES.map((language) => pageBytes(key, language)));
    const budget = FIRST_LOAD_PAGES.has(key) ? FIRST_LOAD_BUDGET_KB : PAGE_BUDGET_KB;
    return { page: key.replace(/^src\/features\//, ''), own: kb(load - total(entryFiles)), load: kb(load), budget };
  })
  .sort((a, b) => b.load - a.load);

console.log(`entry (shell, router, theme, i18n): ${kb(total(entryFiles)).toFixed(1)} kB gzipped`);
console.log('page'.padEnd(40), 'page + i18n kB'.padStart(15), 'cold load kB'.padStart(13), 'budget'.padStart(7));
for (const row of rows) {
  const mark = row.load > row.budget ? '  OVER BUDGET' : '';
  console.log(row.page.padEnd(40), row.own.toFixed(1).padStart(15), row.load.toFixed(1).padStart(13), String(row.budget).padStart(7) + mark);
}
const missing = [...SIGNED_OUT_PAGES, ...LANGUAGES.flatMap((language) => [`src/i18n/${language}/signed-out.ts`, `src/i18n/${language}/console.ts`])].filter(
  (key) => !manifest[key]?.isDynamicEntry,
);
if (missing.length > 0) {
  console.error(`bundle budget: ${missing.join(', ')} not found as lazy chunks; update the lists above`);
  process.exit(1);
}
const over = rows.filter((row) => row.load > row.budget);
if (over.length > 0) {
  console.error(`bundle budget exceeded by ${over.map((row) => row.page).join(', ')}`);
  process.exit(1);
}
console.log('bundle budget: every page within budget');
