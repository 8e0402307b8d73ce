/** The precomputed pages of one list result: page 0 is what a request without a cursor gets. */
export type ListPages<K extends string, T> = readonly Readonly<Record<K, T[]> & { nextCursor?: string }>[];
