import { bundleFromFiles } from '../namespaces';

/** The zh namespaces of the pages a signed-out visitor sees (see SIGNED_OUT_NAMESPACES). */
export const bundle = bundleFromFiles(
  import.meta.glob<{ default: Record<string, unknown> }>('./{common,shell,auth,home,setup,identity}.json', { eager: true }),
);
