// Types for test/runtimes/locate.mjs (used by the tests, the benches and scripts/test-runtimes.mjs).
export const RUNTIMES_PACKAGE: string;
export const INSTALLS: string;
export const TEST_MODULES: string;
export const COMPLETE: string;
export function lockHash(): string;
export function installDir(): string;
export function runtimesInstalled(): boolean;
export function toolsReady(): boolean;
export function resolveRuntime(specifier: string): string | null;
export function runtimeBin(name: string): string | null;
export function requireRuntime(name: string): unknown;
export function denoBinary(): string | null;
