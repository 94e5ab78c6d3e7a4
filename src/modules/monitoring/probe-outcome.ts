/** The answer of a channel test, as the console shows it. */
export interface ProbeResult {
  success: boolean;
  message: string;
  /** Seconds the test request took. */
  time: number;
}

/** What a probe saw, for the monitor's disable and re-enable rules. */
export interface ProbeOutcome extends ProbeResult {
  /** The upstream's HTTP status, when it answered. */
  status?: number;
  /** The upstream's error body, unscrubbed: matched against AutomaticDisableKeywords, never shown. */
  errorText?: string;
}
