// src/content/exclude.ts
// The content files a build skips unless the config file's `exclude` says otherwise (a module of its own, so that the
// command line can name them without loading the content reader).

/**
 * Files the build skips by default: what editors and operating systems leave beside the content (Finder's .DS_Store,
 * Explorer's Thumbs.db, backups and swap or lock files of Emacs and Vim).
 */
export const DEFAULT_EXCLUDE: readonly string[] = [".DS_Store", "Thumbs.db", "*~", "*.swp", ".#*"];
