/**
 * How the gateway's Node process starts, for a small and steady memory footprint (issue 32).
 * Both take effect only from the start of the process, so they are set where it is started:
 * package.json's `start` scripts, the Dockerfile, and the benchmark's gateways
 * (process-tuning.spec.ts checks that those agree with this file).
 */

/**
 * V8 flags on node's command line. A maximum old generation under 2 GB caps how far V8 lets the
 * heap grow between full collections (its growing factor, at most 4× the live heap on a machine
 * with memory to spare, falls to at most ~1.8× at 1536 MB): under load the heap then stays a
 * few tens of MB above what is live instead of filling with garbage for minutes.
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--max-old-space-size=1536'];

/**
 * Environment read by the C library when the process starts. glibc gives each thread that
 * allocates its own malloc arena, up to 8 per core, and freed memory stays in them: two arenas
 * for the event loop, the SQLite writer, V8's compiler and GC threads keep ~20 MB less resident
 * under load, at no measurable CPU cost. Ignored off glibc (macOS, Windows, Alpine's musl).
 */
export const GATEWAY_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
