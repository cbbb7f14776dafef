// src/content/base-url.ts
// What a base URL may be (manifest.json base_url, --base-url, the config file's baseUrl): an https:// URL without a
// trailing slash, query or fragment. Its own module so that the CLI checks --base-url without loading the content checks.

export const BASE_URL_PATTERN = /^https:\/\/[^/\s?#]+(\/[^\s?#]*[^/\s?#])?$/;
