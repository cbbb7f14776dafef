// src/content/base-url-env.ts
// `--base-url from-env`: the deploy's own URL from the host's build environment, so that a deploy preview's answers
// point at the preview and not at production. Pure: the environment is passed in.

/** The value of --base-url (or the config file's baseUrl) that asks for the deploy's own URL. */
export const FROM_ENV = "from-env";
/**
 * The value of --base-url (or the config file's baseUrl) that makes the edge handler answer with each request's
 * origin, precomputed answers included; what is fixed at build time takes the base URL as `from-env` does.
 */
export const REQUEST_ORIGIN = "request";

export interface EnvBaseUrl {
  /** The URL, https:// and no trailing slash; null when the environment names none (a local build). */
  url: string | null;
  /** Where it came from, for the build's output: "DEPLOY_PRIME_URL (Netlify, deploy-preview)". */
  source: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const https = (value: string): string =>
  (/^https?:\/\//i.test(value) ? value : `https://${value}`).replace(/^http:/i, "https:").replace(/\/+$/, "");

/**
 * Netlify: `URL` in the production context, `DEPLOY_PRIME_URL` in every other (deploy previews, branch deploys).
 * Vercel: `VERCEL_PROJECT_PRODUCTION_URL` in production, `VERCEL_URL` otherwise (both without a scheme).
 * Cloudflare Pages: `CF_PAGES_URL`. Workers builds name no deploy URL: there the handler's request origin is the answer.
 */
export function baseUrlFromEnv(env: Env): EnvBaseUrl {
  const pick = (name: string, where: string): EnvBaseUrl | null => {
    const value = env[name]?.trim();
    return value ? { url: https(value), source: `${name} (${where})` } : null;
  };
  if (env.NETLIFY === "true") {
    const context = env.CONTEXT ?? "production";
    const found =
      context === "production" ? pick("URL", "Netlify, production") : pick("DEPLOY_PRIME_URL", `Netlify, ${context}`);
    if (found) return found;
  }
  if (env.VERCEL === "1") {
    const production = env.VERCEL_ENV === "production";
    const found = production
      ? pick("VERCEL_PROJECT_PRODUCTION_URL", "Vercel, production")
      : pick("VERCEL_URL", `Vercel, ${env.VERCEL_ENV ?? "preview"}`);
    if (found) return found;
  }
  if (env.CF_PAGES === "1") {
    const found = pick("CF_PAGES_URL", `Cloudflare Pages, ${env.CF_PAGES_BRANCH ?? "preview"}`);
    if (found) return found;
  }
  return { url: null, source: "no deploy URL in the environment (NETLIFY, VERCEL or CF_PAGES)" };
}
