/**
 * A fake of ASPSMS's JSON API for tests (decision 051): a local HTTP server
 * answering `POST /SendTextSMS` as ASPSMS does (`{ StatusCode: "1",
 * StatusInfo: "OK" }`), keeping each request's JSON body in `received`.
 * `answerNext(statusCode, httpStatus)` makes the next request fail as told.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One SMS the fake received: ASPSMS's request body. */
export interface AspsmsRequest {
  UserName: string;
  Password: string;
  Originator: string;
  Recipients: string[];
  MessageText: string;
  URLDeliveryNotification?: string;
  URLNonDeliveryNotification?: string;
}

export interface FakeAspsms {
  /** The API's origin, for ASPSMS_URL. */
  url: string;
  received: AspsmsRequest[];
  /** The next request is answered with this StatusCode (and HTTP status, 200 by default). */
  answerNext(statusCode: string, httpStatus?: number): void;
  close(): Promise<void>;
}

export async function startFakeAspsms(): Promise<FakeAspsms> {
  const received: AspsmsRequest[] = [];
  const queued: { statusCode: string; httpStatus: number }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/SendTextSMS") {
        res.writeHead(404).end();
        return;
      }
      const answer = queued.shift() ?? { statusCode: "1", httpStatus: 200 };
      if (answer.statusCode === "1") received.push(JSON.parse(body) as AspsmsRequest);
      res
        .writeHead(answer.httpStatus, { "content-type": "application/json" })
        .end(JSON.stringify({ StatusCode: answer.statusCode, StatusInfo: answer.statusCode === "1" ? "OK" : "Error" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answerNext: (statusCode, httpStatus = 200) => void queued.push({ statusCode, httpStatus }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
