/**
 * Checking a CAS service ticket (CAS protocol 3.0, `/p3/serviceValidate`), as the AngularJS web app signs in: it
 * gets a ticket from the CAS server for this route's URL and posts it. The server answers XML, read with
 * fast-xml-parser (no DTDs or external entities are fetched; it runs in Workers).
 */
import { XMLParser } from "fast-xml-parser";
import { fetchFromProvider, ProviderUnavailableError } from "./provider-fetch";

export interface CasPerson {
  /** `cas:user`: who the person is at this CAS server. */
  user: string;
  /** `cas:attributes`, each one's text (a repeated attribute's first value). */
  attributes: Record<string, string>;
}

/** The CAS server refused the ticket; `code` and `description` are its own words. */
export class CasTicketRefusedError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
  ) {
    super(`${code}: ${description}`);
  }
}

const parser = new XMLParser({
  // `cas:serviceResponse` and `serviceResponse` alike: servers differ in their prefixes.
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

const text = (value: unknown): string | undefined => {
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "string") return value.trim();
  if (value !== null && typeof value === "object" && typeof (value as Record<string, unknown>)["#text"] === "string") return ((value as Record<string, unknown>)["#text"] as string).trim();
  return undefined;
};

/** The person a CAS server's serviceValidate answer names; CasTicketRefusedError for a failure it reports. */
export function readServiceResponse(xml: string): CasPerson {
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml, true) as Record<string, unknown>;
  } catch {
    throw new ProviderUnavailableError("CAS answer is not XML");
  }
  const response = document.serviceResponse as Record<string, unknown> | undefined;
  const success = response?.authenticationSuccess as Record<string, unknown> | undefined;
  const failure = response?.authenticationFailure;
  if (success && typeof success === "object") {
    const user = text(success.user);
    if (!user) throw new ProviderUnavailableError("CAS success without a user");
    const attributes: Record<string, string> = {};
    const given = success.attributes;
    if (given && typeof given === "object") {
      for (const [name, value] of Object.entries(given as Record<string, unknown>)) {
        const read = text(value);
        if (read !== undefined) attributes[name] = read;
      }
    }
    return { user, attributes };
  }
  if (failure !== undefined) {
    const code = typeof failure === "object" && failure !== null ? text((failure as Record<string, unknown>).code) : undefined;
    throw new CasTicketRefusedError(code ?? "INVALID_TICKET", text(failure) ?? "");
  }
  throw new ProviderUnavailableError("an unknown answer from CAS serviceValidate");
}

/** Validates `ticket`, issued for `service` (this route's own URL), at the CAS server. */
export async function validateCasTicket(baseUrl: string, ticket: string, service: string): Promise<CasPerson> {
  const url = `${baseUrl}/p3/serviceValidate?ticket=${encodeURIComponent(ticket)}&service=${encodeURIComponent(service)}`;
  const answer = await fetchFromProvider(url, { headers: { Accept: "application/xml, text/xml" } });
  if (answer.status !== 200) throw new ProviderUnavailableError(`status ${answer.status}`);
  return readServiceResponse(answer.text);
}
