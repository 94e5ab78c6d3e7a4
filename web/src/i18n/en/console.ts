import { bundleFromFiles } from '../namespaces';

/** The en namespaces of the signed-in console, loaded with its first page. */
export const bundle = bundleFromFiles(
  import.meta.glob<{ default: Record<string, unknown> }>(['./*.json', '!./{common,shell,auth,home,setup,identity}.json'], { eager: true }),
);
