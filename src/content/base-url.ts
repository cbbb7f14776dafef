// src/content/base-url.ts
// What a base URL may be (manifest.json base_url, --base-url, the config file's baseUrl, verify --base-url): an
// https:// URL without a trailing slash, query or fragment that WHATWG's URL parser takes whole. Its own module so
// that the CLI checks --base-url without loading the content checks.

/** The base URL `init` writes into manifest.json until the user sets theirs (.example never resolves: RFC 2606). A
 * build warns of it, so that --strict refuses it. */
export const PLACEHOLDER_BASE_URL = "https://your-site.example";

export const BASE_URL_PATTERN = /^https:\/\/[^/\s?#]+(\/[^\s?#]*[^/\s?#])?$/;

/**
 * Why `value` cannot be a base URL, or null when it can. It must parse with WHATWG's URL parser, use https (or http
 * where `http` allows it, for verify), have a host with no empty label and a valid port, hold only valid
 * percent-escapes, carry no user or password, and end without a slash, query or fragment.
 */
export function baseUrlProblem(value: string, { http = false } = {}): string | null {
  const pattern = http ? /^https?:\/\/[^/\s?#]+(\/[^\s?#]*[^/\s?#])?$/i : BASE_URL_PATTERN;
  if (!pattern.test(value))
    return `it must be an ${http ? "http:// or https://" : "https://"} URL without a trailing slash, query or fragment`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "it is not a URL that browsers accept (look at the host and the port)";
  }
  if (url.username !== "" || url.password !== "") return "it must not carry a user or password";
  if (!url.hostname.startsWith("[") && url.hostname.split(".").some((label) => label === ""))
    return `its host ${JSON.stringify(url.hostname)} has an empty label`;
  if (/%(?![0-9A-Fa-f]{2})/.test(value)) return "it has a % that does not start a percent-escape (%XX)";
  return null;
}
