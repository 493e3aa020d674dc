// Types for scripts/title-index-forms.mjs, which test/helpers/large-catalogue.ts imports into workerd.
export declare const TITLE_PAGE: number;
export declare const UPDATE_BYTES: number;
export declare function titlePageSql(after: number): string;
export declare function titleFormsUpdateSql(changes: Array<{ r: number; t: string; f: string | null }>): string;
export declare function fillTitleIndexForms(
  run: (sql: string) => Promise<Array<Record<string, unknown>>> | Array<Record<string, unknown>>,
  indexForm: (text: string) => string | null,
  onPage?: (progress: { read: number; written: number }) => void,
): Promise<{ read: number; written: number }>;
