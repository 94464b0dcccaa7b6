FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates bubblewrap socat && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsx scripts/db/generate.ts && npx next build
ENV NODE_ENV=production
EXPOSE 3000
CMD ["node", "--import", "tsx", "scripts/web.ts", "-p", "3000"]
