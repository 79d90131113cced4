import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A loopback stand-in for Slack's Socket Mode WebSocket: what it sent, what the app acknowledged. */
export interface FakeSlackSocket {
  /** The `ws://` URL to hand out from `apps.connections.open`. */
  url: string;
  /** Resolves once an app has connected (and was sent `hello`). */
  connected(): Promise<void>;
  /** Sends one text message as is (an envelope object is JSON-encoded). */
  send(message: string | Record<string, unknown>): void;
  /** The envelope ids the app acknowledged, in order, with what each acknowledgement carried. */
  acks: { envelopeId: string; payload: unknown }[];
  /** Resolves once `envelopeId` was acknowledged (rejects after `timeoutMs`). */
  waitForAck(envelopeId: string, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

// RFC 6455's fixed GUID for the handshake's accept key.
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** One server-to-client frame (unmasked, final). */
function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65536
        ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(len)]);
  return Buffer.concat([head, payload]);
}

function bigLength(len: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(len));
  return b;
}

/** Reads the complete client frames at the front of `buf` (clients always mask). */
function readFrames(buf: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const b0 = buf[at] ?? 0;
    const b1 = buf[at + 1] ?? 0;
    let len = b1 & 0x7f;
    let offset = at + 2;
    if (len === 126) {
      if (buf.length < offset + 2) break;
      len = buf.readUInt16BE(offset);
      offset += 2;
    } else if (len === 127) {
      if (buf.length < offset + 8) break;
      len = Number(buf.readBigUInt64BE(offset));
      offset += 8;
    }
    const masked = (b1 & 0x80) !== 0;
    const maskLen = masked ? 4 : 0;
    if (buf.length < offset + maskLen + len) break;
    const mask = buf.subarray(offset, offset + maskLen);
    const payload = Buffer.from(buf.subarray(offset + maskLen, offset + maskLen + len));
    if (masked) for (let i = 0; i < payload.length; i += 1) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
    frames.push({ opcode: b0 & 0x0f, payload });
    at = offset + maskLen + len;
  }
  return { frames, rest: buf.subarray(at) };
}

/**
 * A minimal WebSocket server (RFC 6455: handshake, text, ping/pong, close; no extensions) on
 * 127.0.0.1 that speaks Socket Mode's side: `hello` on connect, envelopes on demand, and a record
 * of the acknowledgements (`{ envelope_id, payload }`) the app sends back.
 *
 * @example const ws = await startFakeSlackSocket(); slackApi.on("apps.connections.open", () => ({ ok: true, url: ws.url }));
 */
export async function startFakeSlackSocket(): Promise<FakeSlackSocket> {
  const acks: FakeSlackSocket["acks"] = [];
  const sockets = new Set<Socket>();
  let current: Socket | undefined;
  let onConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => {
    onConnected = resolve;
  });
  const server: Server = createServer((_req, res) => {
    res.writeHead(426);
    res.end();
  });
  server.on("upgrade", (req, socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const key = req.headers["sec-websocket-key"];
    const accept = createHash("sha1")
      .update(`${String(key)}${WS_GUID}`)
      .digest("base64");
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    current = socket;
    let pending: Buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const f of frames) {
        if (f.opcode === 0x9) socket.write(frame(0xa, f.payload));
        else if (f.opcode === 0x8) socket.end(frame(0x8, f.payload));
        else if (f.opcode === 0x1) {
          const message = JSON.parse(f.payload.toString("utf8")) as { envelope_id?: unknown; payload?: unknown };
          acks.push({ envelopeId: String(message.envelope_id), payload: message.payload });
        }
      }
    });
    socket.write(frame(0x1, Buffer.from(JSON.stringify({ type: "hello", num_connections: 1 }))));
    onConnected();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `ws://127.0.0.1:${port}/link`,
    connected: () => connected,
    send(message) {
      if (!current) throw new Error("no app is connected to the fake Socket Mode server");
      const text = typeof message === "string" ? message : JSON.stringify(message);
      current.write(frame(0x1, Buffer.from(text)));
    },
    acks,
    async waitForAck(envelopeId, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ack = acks.find((a) => a.envelopeId === envelopeId);
        if (ack) return ack.payload;
        if (Date.now() > deadline)
          throw new Error(`no acknowledgement of ${envelopeId}; got ${acks.map((a) => a.envelopeId).join(", ")}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
