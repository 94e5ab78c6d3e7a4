import type { Profile } from '@node-saml/node-saml';

/** An element as xml2js gives it: attributes under `$`, text under `_`, children as arrays. */
interface XmlNode {
  $?: Record<string, string>;
  _?: string;
  [child: string]: unknown;
}

/** What the gateway checks and keeps of an assertion, read from its signed XML only. */
export interface SignedAssertionFacts {
  id: string;
  issuer: string;
  /** Recipient of each bearer SubjectConfirmationData. */
  recipients: string[];
  /** The earliest NotOnOrAfter of the Conditions and the confirmations (unix seconds), or null when none is given. */
  notOnOrAfter: number | null;
}

const isNode = (value: unknown): value is XmlNode => typeof value === 'object' && value !== null;
const children = (node: XmlNode | undefined, name: string): XmlNode[] => (Array.isArray(node?.[name]) ? (node[name] as unknown[]).filter(isNode) : []);
const seconds = (value: string | undefined): number | null => {
  const time = value ? Date.parse(value) : NaN;
  return Number.isFinite(time) ? Math.floor(time / 1000) : null;
};

/**
 * Facts from the assertion node-saml verified (profile.getAssertion() is parsed from the signed
 * XML, never from the unsigned envelope around it).
 */
export function signedAssertionFacts(profile: Profile): SignedAssertionFacts {
  const parsed = profile.getAssertion?.() as { Assertion?: unknown } | undefined;
  const assertion = isNode(parsed?.Assertion) ? parsed.Assertion : undefined;
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
    .filter((confirmation) => confirmation.$?.Method === 'urn:oasis:names:tc:SAML:2.0:cm:bearer')
    .flatMap((confirmation) => children(confirmation, 'SubjectConfirmationData'));
  const deadlines = [children(assertion, 'Conditions')[0], ...confirmations]
    .map((node) => seconds(node?.$?.NotOnOrAfter))
    .filter((time): time is number => time !== null);
  return {
    id: assertion?.$?.ID ?? '',
    issuer: children(assertion, 'Issuer')[0]?._ ?? '',
    recipients: confirmations.map((data) => data.$?.Recipient ?? ''),
    notOnOrAfter: deadlines.length > 0 ? Math.min(...deadlines) : null,
  };
}

/** An attribute's values as strings (one value or several); nested values are left out. */
export function attributeValues(profile: Profile, name: string): string[] {
  const attributes = profile.attributes as Record<string, unknown> | undefined;
  const raw = attributes?.[name];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.filter((value): value is string => typeof value === 'string').map((value) => value.trim()).filter((value) => value !== '');
}
