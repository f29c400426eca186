/**
 * A DNS server on loopback for the sender check's tests (`startDnsServer`):
 * answers TXT and MX questions over UDP from a zone given as data, NXDOMAIN
 * for a name it lacks, an empty answer for a type it lacks. The site reads
 * it through `DNS_SERVERS=127.0.0.1:{port}`; nothing leaves the machine.
 * Only what Node's resolver (c-ares) asks is understood: one question a
 * query, no compression in questions.
 */
import { generateKeyPairSync } from "node:crypto";
import dgram from "node:dgram";

/** A zone: name (lower case) to its TXT records (each its character-strings) and MX records. */
export type DnsZone = Record<string, { txt?: string[][]; mx?: { priority: number; exchange: string }[] }>;

/**
 * A DKIM key record (`v=DKIM1; k=rsa; p=…`) for a fresh RSA key of `bits` bits, its key cut into
 * strings of at most 255 characters as long keys are published.
 */
export function dkimKeyRecord(bits = 2048): string[] {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  const key = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  return ["v=DKIM1; k=rsa; p=", ...(key.match(/.{1,255}/g) ?? [])];
}

const TYPE_TXT = 16;
const TYPE_MX = 15;

/** A domain name as DNS labels ("" or "." is the root). */
function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, "").split(".").filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "ascii")])),
    Buffer.from([0]),
  ]);
}

/** One answer record for the question's name (a pointer to offset 12). */
function answer(type: number, rdata: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(1, 4);
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}

/** The reply to `query` from `zone`, or null when the query cannot be read. */
function reply(query: Buffer, zone: DnsZone): Buffer | null {
  if (query.length < 17) return null;
  let offset = 12;
  const labels: string[] = [];
  while (offset < query.length && query[offset]! > 0) {
    const length = query[offset]!;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString("ascii"));
    offset += length + 1;
  }
  offset += 1;
  if (offset + 4 > query.length) return null;
  const type = query.readUInt16BE(offset);
  const question = query.subarray(12, offset + 4);
  const entry = zone[labels.join(".").toLowerCase()];
  const records: Buffer[] = [];
  if (entry && type === TYPE_TXT)
    for (const strings of entry.txt ?? [])
      records.push(
        answer(
          TYPE_TXT,
          Buffer.concat(
            strings.map((text) => Buffer.concat([Buffer.from([Buffer.byteLength(text)]), Buffer.from(text)])),
          ),
        ),
      );
  if (entry && type === TYPE_MX)
    for (const mx of entry.mx ?? []) {
      const preference = Buffer.alloc(2);
      preference.writeUInt16BE(mx.priority);
      records.push(answer(TYPE_MX, Buffer.concat([preference, encodeName(mx.exchange)])));
    }
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // A response, authoritative, recursion desired as asked and available; NXDOMAIN for an unknown name.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (entry ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  return Buffer.concat([header, question, ...records]);
}

/** A DNS server answering from `zone` (changeable while it runs: `zone` is read at each query); `close()` may be called twice. */
export async function startDnsServer(zone: DnsZone): Promise<{ address: string; close(): Promise<void> }> {
  const socket = dgram.createSocket("udp4");
  socket.on("message", (query, from) => {
    const answerBytes = reply(query, zone);
    if (answerBytes) socket.send(answerBytes, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  let closed: Promise<void> | undefined;
  return {
    address: `127.0.0.1:${socket.address().port}`,
    // Once closed, the port refuses queries: the resolver gets ECONNREFUSED, as with no network.
    close: () => (closed ??= new Promise<void>((resolve) => socket.close(() => resolve()))),
  };
}
