/**
 * JSON:API documents. A list's top level is exactly `data`, `meta` and, when asked for, `included`.
 */
export interface Identifier {
  type: string;
  id: string;
}

export interface ResourceObject extends Identifier {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data: Identifier | Identifier[] | null }>;
}

export interface ListMeta {
  pagination: { page: number; per_page: number; total_count: number; total_pages: number };
  sort: string | null;
  filter: Record<string, unknown>;
  [key: string]: unknown;
}

export function paginationMeta(page: number, perPage: number, totalCount: number): ListMeta["pagination"] {
  const totalPages = perPage === 0 || totalCount === 0 ? 0 : Math.ceil(totalCount / perPage);
  return { page, per_page: perPage, total_count: totalCount, total_pages: totalPages };
}

export function listDocument(data: ResourceObject[], meta: ListMeta, included?: ResourceObject[]) {
  return included ? { data, meta, included } : { data, meta };
}

export function singleDocument(data: ResourceObject, included?: ResourceObject[]) {
  return included ? { data, included } : { data };
}
