import type { TestApp } from './test-app';

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route Nest mapped onto Express, as 'METHOD /path' (with `:param` placeholders), sorted. */
export function mappedRoutes(app: TestApp): string[] {
  const express = app.app.getHttpAdapter().getInstance() as { router?: { stack: ExpressLayer[] }; _router?: { stack: ExpressLayer[] } };
  const stack = (express.router ?? express._router)?.stack ?? [];
  const routes = new Set<string>();
  for (const layer of stack) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) {
      if (method === '_all') continue;
      routes.add(`${method.toUpperCase()} ${layer.route.path.replace(/\/$/, '') || '/'}`);
    }
  }
  return [...routes].sort();
}
