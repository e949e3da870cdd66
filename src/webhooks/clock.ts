import { formatTimestamp } from "../jsonapi/time";

/** A stored timestamp (`YYYY-MM-DDTHH:MM:SSZ`) moved by whole seconds. */
export function addSeconds(timestamp: string, seconds: number): string {
  return formatTimestamp(new Date(Date.parse(timestamp) + seconds * 1000));
}
