/**
 * Cycles through `included`: a JSON:API reader that resolves each relationship from `included` and then the
 * relationships of what it found (the web app's jsonapi-serializer) never ends on a record that leads back to
 * itself. Every answer the suite receives is checked for one (test/helpers/api.ts).
 */
interface Identifier {
  type: string;
  id: string;
}

interface ResourceObject extends Identifier {
  relationships?: Record<string, { data?: Identifier | Identifier[] | null }>;
}

const keyOf = ({ type, id }: Identifier) => `${type}/${id}`;

function linked(resource: ResourceObject): Identifier[] {
  return Object.values(resource.relationships ?? {}).flatMap(({ data }) => (data === null || data === undefined ? [] : Array.isArray(data) ? data : [data]));
}

/** The records of a cycle through `included` (the first found, its first record repeated last), or undefined. */
export function linkageCycle(document: unknown): string[] | undefined {
  const included = (document as { included?: unknown } | null)?.included;
  if (!Array.isArray(included)) return undefined;
  const byKey = new Map((included as ResourceObject[]).map((resource) => [keyOf(resource), resource]));
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (key: string): string[] | undefined => {
    if (onPath.has(key)) return [...path.slice(path.indexOf(key)), key];
    if (done.has(key)) return undefined;
    path.push(key);
    onPath.add(key);
    for (const target of linked(byKey.get(key)!)) {
      const next = keyOf(target);
      if (!byKey.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(key);
    done.add(key);
    return undefined;
  };
  for (const key of byKey.keys()) {
    const cycle = visit(key);
    if (cycle) return cycle;
  }
  return undefined;
}
