/** Who may call a route: anyone, any signed-in user, admins (role ≥ 10) or root (role ≥ 100). */
export type Access = 'public' | 'user' | 'admin' | 'root';

/** `METHOD /path` exactly as Nest maps it (with `:param` placeholders) → who may call it. */
export type RouteAccessTable = Record<string, Access>;
