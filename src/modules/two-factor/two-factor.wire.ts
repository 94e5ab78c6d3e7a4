/** GET /api/user/2fa/status: whether the account uses a second factor, and whether it must. */
export interface TwoFactorStatusView {
  enabled: boolean;
  /** Unused recovery codes left (0 when 2FA is off). */
  recovery_codes_left: number;
  /** The TwoFactorRequirement setting applies to this account. */
  required: boolean;
}

/** POST /api/user/2fa/setup: the only answer that ever carries the secret, before it is confirmed. */
export interface TwoFactorSetupView {
  secret: string;
  otpauth_uri: string;
}

/** POST /api/user/2fa/enable and /api/user/2fa/recovery_codes: the codes, shown this once. */
export interface RecoveryCodesView {
  recovery_codes: string[];
}

/** The answer of a sign-in's first step when the account has a second factor. */
export interface SecondFactorChallengeView {
  require_2fa: true;
}
