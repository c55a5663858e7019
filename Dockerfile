# rewind-server in a container: built on Debian 12 with its own packages, run as a non-root user with the
# server binary and its shared libraries only. docker build -t rewind-server . ; see docs/DEPLOY.md.
# The full image, not -slim: slim tells dpkg to skip /usr/share/doc, where Debian ships the ImGui SDL
# backends the client's CMakeLists needs at configure time.
FROM debian:12 AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake ninja-build pkg-config \
      libenet-dev libsodium-dev libxxhash-dev nlohmann-json3-dev libcli11-dev libcpp-httplib-dev \
      libsdl2-dev libimgui-dev libstb-dev libcairo2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# Configuring the programs needs the client's and the lab's headers too (SDL2, ImGui, cairo); only the
# server is built, and only it leaves this stage.
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DREWIND_BUILD_TESTS=OFF -DREWIND_BUILD_BENCH=OFF \
 && cmake --build build --target rewind-server

FROM debian:12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libenet7 libsodium23 libxxhash0 libcpp-httplib0.11 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin rewind
COPY --from=build /src/build/apps/rewind-server /usr/local/bin/rewind-server
USER 10001:10001
# Game traffic (UDP) and the Prometheus page (TCP).
EXPOSE 7777/udp 9100/tcp
ENTRYPOINT ["/usr/local/bin/rewind-server"]
CMD ["--port", "7777", "--metrics-port", "9100"]
