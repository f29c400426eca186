/**
 * Lingering close (RFC 9112 section 9.6, "Tear-down"): when the server
 * answers a request before reading its whole body (a 413 on a declared
 * 10 MB body, an action refusing a body past its limit) and the connection
 * then closes, Node ends the socket and destroys it as soon as the answer
 * is written. The client is still sending: the server's kernel, holding
 * unread bytes at close, resets the connection, and the reset can reach the
 * client before it has read the answer, which it then never sees
 * (`write EPIPE`, `ECONNRESET`). A visitor would get a broken page instead
 * of "La demande envoyée est trop volumineuse."
 *
 * So for such an answer the socket is closed in stages: the answer is
 * written and the write side half-closed (Node's own `end()`), then what the
 * client still sends is read and thrown away (Node's HTTP parser keeps
 * reading it for the unread request), until the client closes its side or
 * `LINGER_MS` have passed, and only then is the socket destroyed.
 *
 * How: after Node's own `finish` handler of the response has ended the
 * socket (`socket.writableEnded`), the destruction it scheduled for the end
 * of writing (`socket.once("finish", socket.destroy)`, Node 18 to 24's
 * `destroySoon`) is taken back and replaced by the bounded wait. Should a
 * later Node schedule it otherwise, nothing is taken back and the socket
 * closes as before (the door test `doors.test.ts` "10 MB" then shows it).
 */
import type { RequestHandler } from "express";

/** How long a closing socket keeps reading what the client still sends, in milliseconds (nginx's `lingering_time` is 30 s; its `lingering_timeout`, 5 s). */
export const LINGER_MS = 5_000;

/** Express middleware, first in the chain: every answer that leaves a body unread on a closing connection closes in stages. */
export function lingeringClose(lingerMs = LINGER_MS): RequestHandler {
  return (req, res, next) => {
    res.on("finish", () => {
      const socket = req.socket;
      // Registered after Node's handler: by now Node has ended the socket if the connection closes.
      if (req.complete || !socket.writableEnded || socket.destroyed) return;
      const scheduled = socket.listeners("finish").length;
      socket.removeListener("finish", socket.destroy);
      if (socket.listeners("finish").length === scheduled) return; // not Node's schedule: leave it
      const destroy = () => {
        clearTimeout(timer);
        if (!socket.destroyed) socket.destroy();
      };
      const timer = setTimeout(destroy, lingerMs);
      timer.unref();
      socket.once("end", destroy);
      socket.once("close", () => clearTimeout(timer));
      socket.once("error", destroy);
    });
    next();
  };
}
