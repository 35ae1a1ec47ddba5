export declare const DIST: string;
export declare const BUDGET_GZIP: number;
export declare function initialJs(dist?: string): {
  files: Array<{ file: string; bytes: number; gzip: number }>;
  bytes: number;
  gzip: number;
};
