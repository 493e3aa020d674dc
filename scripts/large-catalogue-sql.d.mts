// Types for scripts/large-catalogue-sql.mjs, which test/helpers/large-catalogue.ts imports into workerd.
export declare const CONTAINER_BASE: number;
export declare const VIDEO_BASE: number;
export declare const VIDEO_STRIDE: number;
export declare const NOW: number;
export declare const ANALYZE_SQL: string;
export declare function containerId(index: number): number;
export declare function videoId(containerIndex: number, n: number): number;
export interface LargeCatalogueStatement {
  /** What the statement fills, for progress output. */
  table: string;
  sql: string;
}
export declare function largeCatalogueStatements(opts?: { from?: number; to?: number; analyze?: boolean }): LargeCatalogueStatement[];
export declare function largeCatalogueCountsSql(containers?: number): string;
