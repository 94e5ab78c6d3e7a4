/** A language's namespaces, keyed by file name (`common.json` → `common`). */
export type LanguageBundle = Record<string, Record<string, unknown>>;

/** Turns an eager `import.meta.glob('./*.json')` of one language folder into its bundle. */
export function bundleFromFiles(files: Record<string, { default: Record<string, unknown> }>): LanguageBundle {
  const bundle: LanguageBundle = {};
  for (const [path, module] of Object.entries(files)) bundle[path.replace(/^.*\/|\.json$/g, '')] = module.default;
  return bundle;
}
