#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 for the kill tests and benchmarks: standard library only.

    tcp_proxy.py PORT_FILE TARGET_PORT [TARGET_PORT ...]

Listens on a free loopback port (written to PORT_FILE once listening) and forwards each accepted
connection to the next target in turn (round-robin; a target that refuses the connection is
skipped for that connection, as a load balancer's health check would). SIGUSR1 cuts every open
connection at once, in both directions, with a reset (SO_LINGER 0): whatever was in flight is
lost mid-stream, as when a network path breaks. SIGTERM stops the proxy.
"""
import os
import signal
import socket
import struct
import sys
import threading

connections = set()  # sockets of live connections, both sides
lock = threading.Lock()


def reset(sock):
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def cut_all(*_):
    with lock:
        live = list(connections)
    for sock in live:
        reset(sock)


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    # One side ended: end the other too (a half-open pair would hang a client forever).
    reset(dst)
    reset(src)


def serve(client, targets, first):
    upstream = None
    for i in range(len(targets)):
        port = targets[(first + i) % len(targets)]
        try:
            upstream = socket.create_connection(("127.0.0.1", port), timeout=5)
            upstream.settimeout(None)
            break
        except OSError:
            upstream = None
    if upstream is None:
        reset(client)
        client.close()
        return
    for s in (client, upstream):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    with lock:
        connections.update((client, upstream))
    up = threading.Thread(target=pump, args=(client, upstream), daemon=True)
    up.start()
    pump(upstream, client)
    up.join()
    with lock:
        connections.difference_update((client, upstream))
    client.close()
    upstream.close()


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: tcp_proxy.py PORT_FILE TARGET_PORT [TARGET_PORT ...]")
    port_file = sys.argv[1]
    targets = [int(p) for p in sys.argv[2:]]
    signal.signal(signal.SIGUSR1, cut_all)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(256)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    turn = 0
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client, targets, turn), daemon=True).start()
        turn = (turn + 1) % len(targets)


if __name__ == "__main__":
    main()
