// test/runtimes/absent/playwright-core.d.ts
// What the type checker sees for playwright-core while test/runtimes is not installed (tsconfig.json's paths try
// the install first): the calls the catalogue's browser test makes, loosely typed, so that `tsc` passes there.
type Call = (...args: any[]) => Promise<any>;
interface Locator {
  evaluate<R>(fn: (element: any) => R, arg?: unknown): Promise<R>;
  evaluateAll<R>(fn: (elements: any[]) => R, arg?: unknown): Promise<R>;
  locator(selector: string): Locator;
  first(): Locator;
  count: Call;
  getAttribute: Call;
  textContent: Call;
  waitFor: Call;
}
export interface Page {
  on(event: string, listener: (value: any) => void): void;
  route(url: unknown, handler: (route: any) => unknown): Promise<void>;
  evaluate<R>(fn: (arg: any) => R, arg?: unknown): Promise<R>;
  locator(selector: string): Locator;
  close: Call;
  fill: Call;
  getAttribute: Call;
  goto: Call;
  isVisible: Call;
  screenshot: Call;
  textContent: Call;
  unrouteAll: Call;
  waitForSelector: Call;
}
export interface Browser {
  newPage(options?: unknown): Promise<Page>;
  newContext(options?: unknown): Promise<{ newPage(): Promise<Page>; close(): Promise<void> }>;
  close(): Promise<void>;
}
export declare const chromium: { launch(options?: unknown): Promise<Browser> };
