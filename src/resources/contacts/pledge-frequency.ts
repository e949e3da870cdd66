import { PLEDGE_FREQUENCY_KEYS, type PledgeFrequencyKey } from "../../constants";

/**
 * The constants key a client's pledge frequency stands for. Clients send numbers (1, 0.23076923076923) or their
 * text; the stored and answered value is exactly the key ("1.0", "0.23076923076923").
 */
export function pledgeFrequencyKey(value: unknown): PledgeFrequencyKey | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number)) return undefined;
  return PLEDGE_FREQUENCY_KEYS.find((key) => Math.abs(Number(key) - number) < 1e-9);
}
