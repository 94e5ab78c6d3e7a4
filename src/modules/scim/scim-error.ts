/** RFC 7644 §3.12 `scimType` values this service provider answers with. */
export type ScimErrorType = 'invalidFilter' | 'invalidSyntax' | 'invalidPath' | 'invalidValue' | 'noTarget' | 'uniqueness' | 'mutability' | 'tooMany';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The body of a SCIM error answer. */
export interface ScimErrorBody {
  schemas: [typeof SCIM_ERROR_SCHEMA];
  /** The HTTP status, as a string (RFC 7644 §3.12). */
  status: string;
  scimType?: ScimErrorType;
  detail: string;
}

/** A failure answered in SCIM's error shape with its HTTP status. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimErrorType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  body(): ScimErrorBody {
    return { schemas: [SCIM_ERROR_SCHEMA], status: String(this.status), ...(this.scimType ? { scimType: this.scimType } : {}), detail: this.detail };
  }
}

export const badRequest = (scimType: ScimErrorType, detail: string) => new ScimError(400, detail, scimType);
export const notFound = (detail: string) => new ScimError(404, detail);
