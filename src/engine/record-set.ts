/**
 * The records a document has answered, by type and id, to include each record once. A streamed page remembers
 * every record it includes (hundreds of thousands for `include=*` over 25,000 contacts), so ids are kept packed: a
 * UUID's 128 bits as an 8-character string (two bytes a character), under half the memory of its text.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function packed(id: string): string {
  if (!UUID.test(id)) return id;
  const hex = id.replace(/-/g, "");
  let text = "";
  for (let i = 0; i < 32; i += 4) text += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  // A leading marker keeps a packed id apart from an id that is not a UUID.
  return `\u0000${text}`;
}

export class RecordSet {
  private readonly byType = new Map<string, Set<string>>();

  static of(resources: Array<{ type: string; id: string }>): RecordSet {
    const set = new RecordSet();
    for (const resource of resources) set.add(resource.type, resource.id);
    return set;
  }

  /** Adds the record; false when it was already there. */
  add(type: string, id: string): boolean {
    let ids = this.byType.get(type);
    if (!ids) this.byType.set(type, (ids = new Set()));
    const key = packed(id);
    if (ids.has(key)) return false;
    ids.add(key);
    return true;
  }
}
