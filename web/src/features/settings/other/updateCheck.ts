/** What the update check learned; `failed` covers offline, timeouts and unexpected answers alike. */
export type UpdateCheckResult = { kind: 'latest' } | { kind: 'newer'; tag: string; notes: string; url?: string } | { kind: 'failed' };

const TIMEOUT_MS = 10_000;

/** "v1.2.3" and "1.2.3" name the same release. */
const sameVersion = (a: string, b: string) => a.trim().replace(/^v/i, '') === b.trim().replace(/^v/i, '');

/**
 * Reads the latest release from a listing that answers like GitHub's `releases/latest`
 * ({tag_name, body, html_url}). Never throws: any failure is `{kind: 'failed'}`, so being
 * offline only yields the "try later" message.
 */
export async function checkForUpdate(releasesUrl: string, currentVersion: string): Promise<UpdateCheckResult> {
  try {
    const response = await fetch(releasesUrl, {
      headers: { Accept: 'application/json' },
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) return { kind: 'failed' };
    const release = (await response.json()) as { tag_name?: unknown; body?: unknown; html_url?: unknown };
    if (typeof release.tag_name !== 'string' || release.tag_name.trim() === '') return { kind: 'failed' };
    if (sameVersion(release.tag_name, currentVersion)) return { kind: 'latest' };
    return {
      kind: 'newer',
      tag: release.tag_name,
      notes: typeof release.body === 'string' ? release.body : '',
      url: typeof release.html_url === 'string' && /^https?:\/\//i.test(release.html_url) ? release.html_url : undefined,
    };
  } catch {
    return { kind: 'failed' };
  }
}
