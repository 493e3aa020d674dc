// Types for scripts/docs-assets.mjs, which vitest.config.ts imports.
export declare const DOCS_ASSETS_DIR: string;
export declare const DOCS_ASSET_FILES: string[];
export declare function copyDocsAssets(options?: { quiet?: boolean }): void;
