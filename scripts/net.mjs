// Small network helpers for the scripts that start servers and drivers.
import net from "node:net";

/// A TCP port on 127.0.0.1 that was free a moment ago.
export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
