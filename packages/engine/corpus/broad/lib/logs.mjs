// Log families of the broad corpus: one seeded generator per ecosystem, each writing lines in
// that system's own clock and prefix style (HDFS `081109 203615 148 INFO`, Spark `17/06/09
// 20:10:40`, logcat `03-17 16:13:38.811  1702  2395 D`, ...), with varied templates, variable
// fields, a few warning/error templates and planted incidents. Gold answers: every planted
// incident line and the first line of each warning/error template.
import { rng, stamp } from "./rand.mjs";

const LINES = 900;

/** Level words as each family writes them. */
const LV = {
  plain: { D: "DEBUG", I: "INFO", W: "WARN", E: "ERROR" },
  padded: { D: "DEBUG", I: "INFO ", W: "WARN ", E: "ERROR" },
  long: { D: "DEBUG", I: "INFO", W: "WARNING", E: "ERROR" },
};

const FAMILIES = [
  {
    id: "hdfs",
    hint: "cat hdfs/datanode.log",
    start: Date.UTC(2008, 10, 9, 20, 35, 15),
    prefix: (t, r, l) => `${stamp(t, "hdfs")} ${r.int(13, 35)} ${LV.plain[l]} dfs.`,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `DataNode$PacketResponder: PacketResponder ${r.int(0, 2)} for block blk_${r.int(1e15, 9e15)} terminating`,
      },
      {
        w: 6,
        l: "I",
        m: (r) =>
          `DataNode$PacketResponder: Received block blk_-${r.int(1e15, 9e15)} of size ${r.int(1e6, 6.7e7)} from /${r.ip()}`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `FSNamesystem: BLOCK* NameSystem.addStoredBlock: blockMap updated: ${r.ip()}:50010 is added to blk_${r.int(1e15, 9e15)} size ${r.int(1e6, 6.7e7)}`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `DataNode$DataXceiver: Receiving block blk_${r.int(1e15, 9e15)} src: /${r.ip()}:${r.int(30000, 60000)} dest: /${r.ip()}:50010`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `FSNamesystem: BLOCK* NameSystem.allocateBlock: /user/root/rand/_temporary/_task_200811092030_0001_m_${String(r.int(0, 1999)).padStart(6, "0")}_0/part-${String(r.int(0, 1999)).padStart(5, "0")}. blk_${r.int(1e15, 9e15)}`,
      },
      {
        w: 2,
        l: "I",
        m: (r) => `DataNode: ${r.ip()}:50010 Served block blk_${r.int(1e15, 9e15)} to /${r.ip()}`,
      },
      {
        w: 0.4,
        l: "W",
        m: (r) =>
          `DataNode: ${r.ip()}:50010:Got exception while serving blk_${r.int(1e15, 9e15)} to /${r.ip()}:`,
      },
    ],
    plants: [
      {
        at: 0.41,
        l: "E",
        m: "DataNode: 10.251.43.21:50010:DataXceiver: java.io.IOException: Block blk_-5009020203888190378 is valid, and cannot be written to.",
      },
      {
        at: 0.77,
        l: "W",
        m: "FSDataset: Unexpected error trying to delete block blk_7128370237687728475. BlockInfo not found in volumeMap.",
      },
    ],
  },
  {
    id: "spark",
    hint: "yarn logs -applicationId application_1496982312_0001",
    start: Date.UTC(2017, 5, 9, 20, 10, 40),
    prefix: (t, _r, l) => `${stamp(t, "spark")} ${LV.plain[l]} `,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) => `storage.BlockManager: Found block rdd_${r.int(2, 40)}_${r.int(0, 400)} locally`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `executor.Executor: Finished task ${r.int(0, 400)}.0 in stage ${r.int(0, 30)}.0 (TID ${r.int(0, 9000)}). ${r.int(900, 3000)} bytes result sent to driver`,
      },
      {
        w: 5,
        l: "I",
        m: (r) => `executor.CoarseGrainedExecutorBackend: Got assigned task ${r.int(0, 9000)}`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `executor.Executor: Running task ${r.int(0, 400)}.0 in stage ${r.int(0, 30)}.0 (TID ${r.int(0, 9000)})`,
      },
      { w: 2, l: "I", m: (_r) => `spark.MapOutputTrackerWorker: Got the output locations` },
      {
        w: 2,
        l: "I",
        m: (r) =>
          `storage.ShuffleBlockFetcherIterator: Getting ${r.int(1, 400)} non-empty blocks out of ${r.int(400, 800)} blocks`,
      },
      {
        w: 1,
        l: "I",
        m: (r) =>
          `broadcast.TorrentBroadcast: Reading broadcast variable ${r.int(1, 90)} took ${r.int(2, 90)} ms`,
      },
      {
        w: 0.3,
        l: "W",
        m: (r) =>
          `storage.BlockManager: Block rdd_${r.int(2, 40)}_${r.int(0, 400)} could not be removed as it was not found on disk or in memory`,
      },
    ],
    plants: [
      {
        at: 0.55,
        l: "E",
        m: "executor.Executor: Exception in task 17.0 in stage 12.0 (TID 4431)",
        trace: [
          "java.lang.OutOfMemoryError: GC overhead limit exceeded",
          "\tat java.util.Arrays.copyOf(Arrays.java:3236)",
          "\tat org.apache.spark.util.collection.ExternalSorter.insertAll(ExternalSorter.scala:199)",
          "\tat org.apache.spark.scheduler.Task.run(Task.scala:99)",
        ],
      },
    ],
  },
  {
    id: "android",
    hint: "adb logcat -d",
    start: Date.UTC(2026, 2, 17, 16, 13, 38),
    prefix: (t, r, l) =>
      `${stamp(t, "android")}  ${r.pick(["1702", "2227", "2632"])}  ${String(r.int(1000, 9999)).padStart(4, " ")} ${l === "W" ? "W" : l === "E" ? "E" : r.pick(["D", "I", "V"])} `,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `PowerManagerService: acquire lock=${r.int(1e8, 3e8)}, flags=0x1, tag="RILJ_ACK_WL", name=com.android.phone, ws=null, uid=1001, pid=2626`,
      },
      {
        w: 6,
        l: "I",
        m: (r) =>
          `PowerManagerService: release:lock=${r.int(1e8, 3e8)}, flg=0x0, tag="RILJ_ACK_WL", name=com.android.phone", ws=null, uid=1001, pid=2626`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `WindowManager: printFreezingDisplayLogsopening app wtoken = AppWindowToken{${r.hex(7)} token=Token{${r.hex(7)} ActivityRecord{${r.hex(7)} u0 com.tencent.qt.qtl/.activity.info.NewsDetailXmlActivity t${r.int(700, 800)}}}}, allDrawn= false`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `DisplayPowerController: Animating brightness: target=${r.int(10, 255)}, rate=${r.int(10, 200)}`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `ActivityManager: Start proc ${r.int(20000, 32000)}:com.android.${r.pick(["settings", "vending", "chrome", "systemui"])}/u0a${r.int(10, 140)} for service`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `SendBroadcastPermission: action:android.com.huawei.bone.NOTIFY_SPORT_DATA, mPermissionType:${r.int(0, 2)}`,
      },
      {
        w: 0.3,
        l: "W",
        m: (r) =>
          `ActivityManager: Unable to start service Intent { act=com.google.android.gms.${r.pick(["drive", "ads", "auth"])}.START } U=0: not found`,
      },
    ],
    plants: [
      {
        at: 0.63,
        l: "E",
        m: "AndroidRuntime: FATAL EXCEPTION: main Process: com.tencent.qt.qtl, PID: 24714",
        trace: [
          "AndroidRuntime: java.lang.NullPointerException: Attempt to invoke virtual method 'int java.lang.String.length()' on a null object reference",
        ],
      },
    ],
  },
  {
    id: "apache-error",
    hint: "tail -n 1500 /var/log/apache2/error.log",
    start: Date.UTC(2005, 11, 4, 4, 47, 44),
    prefix: (t, _r, l) => `[${stamp(t, "apache")}] [${l === "E" ? "error" : l === "W" ? "warn" : "notice"}] `,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) => `jk2_init() Found child ${r.int(5000, 9000)} in scoreboard slot ${r.int(6, 10)}`,
      },
      { w: 6, l: "I", m: (_r) => `workerEnv.init() ok /etc/httpd/conf/workers2.properties` },
      { w: 2, l: "E", m: (r) => `mod_jk child workerEnv in error state ${r.int(6, 9)}` },
      { w: 2, l: "I", m: (r) => `[client ${r.ip()}] Directory index forbidden by rule: /var/www/html/` },
      {
        w: 1,
        l: "E",
        m: (r) =>
          `[client ${r.ip()}] File does not exist: /var/www/html/${r.pick(["favicon.ico", "robots.txt", "phpmyadmin", "wp-login.php"])}`,
      },
    ],
    plants: [
      {
        at: 0.5,
        l: "E",
        m: "[client 222.166.160.184] Premature end of script headers: /var/www/cgi-bin/awstats.pl",
      },
    ],
  },
  {
    id: "nginx-error",
    hint: "cat /var/log/nginx/error.log",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t, r, l) =>
      `${stamp(t, "nginx-error")} [${l === "E" ? "error" : l === "W" ? "warn" : "notice"}] ${r.int(100, 140)}#${r.int(100, 140)}: `,
    templates: [
      {
        w: 4,
        l: "E",
        m: (r) =>
          `*${r.int(1000, 99999)} upstream timed out (110: Connection timed out) while reading response header from upstream, client: ${r.ip()}, server: shop.example.com, request: "GET /api/items/${r.int(1, 900)} HTTP/1.1", upstream: "http://127.0.0.1:8080/api/items/${r.int(1, 900)}", host: "shop.example.com"`,
      },
      {
        w: 3,
        l: "W",
        m: (r) =>
          `*${r.int(1000, 99999)} an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/${r.int(1, 9)}/${r.int(10, 99)}/00000${r.int(10000, 99999)} while reading upstream, client: ${r.ip()}, server: shop.example.com`,
      },
      { w: 5, l: "I", m: (_r) => `signal process started` },
      { w: 5, l: "I", m: (r) => `*${r.int(1000, 99999)} client ${r.ip()} closed keepalive connection` },
    ],
    plants: [
      {
        at: 0.3,
        l: "E",
        m: '*48213 connect() failed (111: Connection refused) while connecting to upstream, client: 10.2.7.14, server: shop.example.com, request: "POST /api/checkout HTTP/1.1", upstream: "http://127.0.0.1:8081/api/checkout"',
      },
    ],
  },
  {
    id: "nginx-access",
    hint: "cat /var/log/nginx/access.log",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    line: (t, r, tpl) => `${r.ip()} - - [${stamp(t, "clf")}] ${tpl.m(r)}`,
    templates: [
      {
        w: 8,
        l: "I",
        m: (r) =>
          `"GET /api/items/${r.int(1, 900)} HTTP/1.1" 200 ${r.int(300, 3000)} "-" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `"GET /static/${r.pick(["app", "vendor", "main"])}.${r.hex(8)}.js HTTP/1.1" 200 ${r.int(3e4, 9e5)} "https://shop.example.com/" "Mozilla/5.0"`,
      },
      { w: 3, l: "I", m: (r) => `"POST /api/cart HTTP/1.1" 201 ${r.int(80, 200)} "-" "okhttp/4.12.0"` },
      { w: 2, l: "I", m: (_r) => `"GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29"` },
      {
        w: 0.5,
        l: "W",
        m: (r) => `"GET /api/items/${r.int(1000, 2000)} HTTP/1.1" 404 ${r.int(40, 90)} "-" "curl/8.5.0"`,
      },
    ],
    plants: [
      {
        at: 0.66,
        l: "E",
        line: (t) =>
          `10.1.9.77 - - [${stamp(t, "clf")}] "POST /api/checkout HTTP/1.1" 502 157 "-" "okhttp/4.12.0"`,
      },
    ],
  },
  {
    id: "syslog",
    hint: "cat /var/log/syslog",
    start: Date.UTC(2026, 10, 2, 6, 25, 1),
    prefix: (t, _r) => `${stamp(t, "syslog")} web-03 `,
    templates: [
      {
        w: 5,
        l: "I",
        m: (r) => `CRON[${r.int(1000, 30000)}]: (root) CMD (   cd / && run-parts --report /etc/cron.hourly)`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `sshd[${r.int(1000, 30000)}]: Accepted publickey for deploy from ${r.ip()} port ${r.int(30000, 60000)} ssh2: ED25519 SHA256:${r.hex(20)}`,
      },
      { w: 4, l: "I", m: (r) => `systemd[1]: Started Session ${r.int(100, 999)} of user deploy.` },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `kernel: [${r.int(1000, 99999)}.${r.int(100000, 999999)}] IPv4: martian source ${r.ip()} from ${r.ip()}, on dev eth0`,
      },
      {
        w: 3,
        l: "I",
        m: (r) => `dhclient[${r.int(500, 900)}]: DHCPREQUEST for ${r.ip()} on eth0 to ${r.ip()} port 67`,
      },
      {
        w: 0.4,
        l: "W",
        m: (r) =>
          `sshd[${r.int(1000, 30000)}]: Failed password for invalid user admin from ${r.ip()} port ${r.int(30000, 60000)} ssh2`,
      },
    ],
    plants: [
      {
        at: 0.52,
        l: "E",
        m: "kernel: [81234.551230] Out of memory: Killed process 22817 (java) total-vm:8123456kB, anon-rss:6123456kB, file-rss:0kB, shmem-rss:0kB, UID:1001",
      },
    ],
  },
  {
    id: "journald-precise",
    hint: "journalctl -u api.service -o short-precise",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t) => `${stamp(t, "journal-precise")} api-1 `,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `api[${r.int(800, 820)}]: handled request id=${r.uuid()} route=/v1/${r.pick(["orders", "users", "items"])} status=200 dur=${r.int(1, 90)}ms`,
      },
      {
        w: 3,
        l: "I",
        m: (r) => `systemd[1]: api.service: Consumed ${r.int(1, 9)}.${r.int(100, 999)}s CPU time.`,
      },
      {
        w: 3,
        l: "I",
        m: (r) => `api[${r.int(800, 820)}]: pool stats active=${r.int(0, 20)} idle=${r.int(0, 20)} waiting=0`,
      },
      {
        w: 0.5,
        l: "W",
        m: (r) =>
          `api[${r.int(800, 820)}]: slow query took ${r.int(1000, 4000)}ms: SELECT * FROM orders WHERE customer_id = $1`,
      },
    ],
    plants: [
      { at: 0.45, l: "E", m: "systemd[1]: api.service: Main process exited, code=killed, status=9/KILL" },
      { at: 0.46, l: "I", m: "systemd[1]: api.service: Scheduled restart job, restart counter is at 3." },
    ],
  },
  {
    id: "log4j",
    hint: "cat logs/orders-service.log",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t, r, l) =>
      `${stamp(t, "iso-comma")} ${LV.padded[l]} [${r.pick(["main", "http-nio-8080-exec-1", "http-nio-8080-exec-4", "scheduler-1"])}] `,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `com.acme.orders.OrderService - Processing order ${r.int(10000, 99999)} for customer ${r.int(100, 999)}`,
      },
      {
        w: 5,
        l: "D",
        m: (_r) => `org.hibernate.SQL - select o1_0.id,o1_0.status from orders o1_0 where o1_0.id=?`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `com.acme.orders.PaymentClient - Payment authorised ref=${r.hex(12)} amount=${r.int(1, 900)}.${r.int(10, 99)} EUR`,
      },
      {
        w: 2,
        l: "I",
        m: (r) =>
          `org.springframework.web.servlet.DispatcherServlet - Completed initialization in ${r.int(1, 9)} ms`,
      },
      {
        w: 0.4,
        l: "W",
        m: (r) =>
          `com.zaxxer.hikari.pool.HikariPool - HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=${r.int(60, 90)}s${r.int(100, 999)}ms).`,
      },
    ],
    plants: [
      {
        at: 0.58,
        l: "E",
        m: "com.acme.orders.OrderController - Request failed for order 48213",
        trace: [
          "java.lang.IllegalStateException: Inventory reservation expired for sku ZX-4410",
          "\tat com.acme.orders.Inventory.reserve(Inventory.java:118)",
          "\tat com.acme.orders.OrderService.place(OrderService.java:64)",
          "\tat org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:186)",
          "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
          "Caused by: java.sql.SQLTimeoutException: Statement cancelled due to timeout",
          "\tat org.postgresql.jdbc.PgStatement.execute(PgStatement.java:403)",
          "\t... 41 more",
        ],
      },
    ],
  },
  {
    id: "logback",
    hint: "docker logs billing",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t, r, l) =>
      `${stamp(t, "time-ms")} [${r.pick(["main", "pool-2-thread-1", "kafka-consumer-1"])}] ${LV.padded[l]} `,
    templates: [
      {
        w: 6,
        l: "D",
        m: (r) =>
          `c.a.billing.kafka.InvoiceListener - consumed offset ${r.int(1e5, 9e5)} partition ${r.int(0, 11)}`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `c.a.billing.InvoiceService - invoice INV-${r.int(10000, 99999)} issued total=${r.int(1, 900)}.${r.int(10, 99)}`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `o.a.k.c.c.internals.ConsumerCoordinator - [Consumer clientId=billing-1, groupId=billing] Committed offset ${r.int(1e5, 9e5)}`,
      },
      {
        w: 0.4,
        l: "W",
        m: (r) =>
          `o.a.k.clients.NetworkClient - [Consumer clientId=billing-1] Connection to node ${r.int(0, 2)} (kafka-${r.int(0, 2)}/10.0.3.${r.int(2, 9)}:9092) could not be established.`,
      },
    ],
    plants: [
      {
        at: 0.7,
        l: "E",
        m: "c.a.billing.InvoiceService - could not render PDF for INV-77310",
        trace: [
          "java.io.UncheckedIOException: font not found: DejaVuSans-Bold.ttf",
          "\tat c.a.billing.pdf.Fonts.load(Fonts.java:41)",
          "\tat c.a.billing.InvoiceService.render(InvoiceService.java:212)",
        ],
      },
    ],
  },
  {
    id: "python-logging",
    hint: "python worker.py",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    line: (_t, r, tpl) => `${LV.long[tpl.l]}:${tpl.logger}:${tpl.m(r)}`,
    templates: [
      {
        w: 6,
        l: "I",
        logger: "worker",
        m: (r) => `picked job ${r.uuid()} queue=${r.pick(["default", "email", "reports"])}`,
      },
      {
        w: 5,
        l: "D",
        logger: "urllib3.connectionpool",
        m: (r) =>
          `https://api.example.com:443 "GET /v2/accounts/${r.int(100, 999)} HTTP/1.1" 200 ${r.int(200, 900)}`,
      },
      { w: 4, l: "I", logger: "worker", m: (r) => `job done in ${r.int(1, 900)}.${r.int(10, 99)}s` },
      {
        w: 0.5,
        l: "W",
        logger: "urllib3.connectionpool",
        m: (r) =>
          `Retrying (Retry(total=${r.int(0, 2)}, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='api.example.com', port=443): Read timed out. (read timeout=10)")': /v2/accounts/${r.int(100, 999)}`,
      },
    ],
    plants: [
      {
        at: 0.6,
        l: "E",
        raw: "ERROR:worker:job 3d1f0c2a-9c1e-4b7a-a0de-5b1f2c9e7d11 failed",
        trace: [
          "Traceback (most recent call last):",
          '  File "/srv/worker/jobs.py", line 88, in run',
          "    result = handler(payload)",
          '  File "/srv/worker/reports.py", line 41, in monthly',
          "    total = sum(row['amount'] for row in rows)",
          "KeyError: 'amount'",
        ],
      },
    ],
  },
  {
    id: "postgres",
    hint: "tail /var/log/postgresql/postgresql-16-main.log",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t, r) => `${stamp(t, "iso-ms")} UTC [${r.int(30000, 39999)}] `,
    templates: [
      { w: 5, l: "I", m: (_r) => `LOG:  checkpoint starting: time` },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `LOG:  checkpoint complete: wrote ${r.int(10, 900)} buffers (${r.int(0, 9)}.${r.int(0, 9)}%); 0 WAL file(s) added, 0 removed, ${r.int(0, 3)} recycled; write=${r.int(1, 90)}.${r.int(100, 999)} s, sync=0.0${r.int(10, 99)} s, total=${r.int(1, 90)}.${r.int(100, 999)} s`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `app@shop LOG:  duration: ${r.int(1, 900)}.${r.int(100, 999)} ms  statement: SELECT id, status FROM orders WHERE id = ${r.int(1, 99999)}`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `LOG:  automatic vacuum of table "shop.public.${r.pick(["orders", "items", "sessions"])}": index scans: 1`,
      },
      { w: 0.4, l: "W", m: (_r) => `app@shop WARNING:  there is no transaction in progress` },
    ],
    plants: [
      {
        at: 0.4,
        l: "E",
        m: 'app@shop ERROR:  duplicate key value violates unique constraint "orders_pkey"',
        trace: ["2026-11-02 09:04:01.000 UTC [31337] app@shop DETAIL:  Key (id)=(48213) already exists."],
      },
      {
        at: 0.8,
        l: "E",
        m: "FATAL:  remaining connection slots are reserved for non-replication superuser connections",
      },
    ],
  },
  {
    id: "mysql",
    hint: "cat /var/log/mysql/error.log",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t, r, l) =>
      `${stamp(t, "iso-us-z")} ${r.int(0, 40)} [${l === "E" ? "ERROR" : l === "W" ? "Warning" : "Note"}] `,
    templates: [
      {
        w: 5,
        l: "I",
        m: (r) =>
          `[MY-010914] [Server] Aborted connection ${r.int(100, 9999)} to db: 'shop' user: 'app' host: '${r.ip()}' (Got an error reading communication packets).`,
      },
      {
        w: 4,
        l: "I",
        m: (_r) =>
          `[MY-013360] [Server] Plugin mysql_native_password reported: ''mysql_native_password' is deprecated and will be removed in a future release.'`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `[MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '8.0.${r.int(30, 36)}'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306`,
      },
      {
        w: 0.5,
        l: "W",
        m: (r) =>
          `[MY-010055] [Server] IP address '${r.ip()}' could not be resolved: Name or service not known`,
      },
    ],
    plants: [
      { at: 0.5, l: "E", m: "[MY-012592] [InnoDB] Operating system error number 28 in a file operation." },
    ],
  },
  {
    id: "redis",
    hint: "cat /var/log/redis/redis-server.log",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t, r) => `${r.pick(["1", "1", "2217"])}:${r.pick(["M", "C"])} ${stamp(t, "redis")} `,
    templates: [
      { w: 5, l: "I", m: (r) => `* ${r.int(1, 100)} changes in ${r.int(60, 300)} seconds. Saving...` },
      { w: 5, l: "I", m: (r) => `* Background saving started by pid ${r.int(2000, 9000)}` },
      { w: 5, l: "I", m: (_r) => `* DB saved on disk` },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `* Fork CoW for RDB: current ${r.int(1, 9)} MB, peak ${r.int(1, 9)} MB, average ${r.int(1, 9)} MB`,
      },
      { w: 4, l: "I", m: (_r) => `* Background saving terminated with success` },
      {
        w: 0.4,
        l: "W",
        m: (_r) =>
          `# WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128.`,
      },
    ],
    plants: [{ at: 0.5, l: "E", m: "# Can't save in background: fork: Cannot allocate memory" }],
  },
  {
    id: "klog",
    hint: "kubectl logs -n kube-system kube-controller-manager-cp-1",
    start: Date.UTC(2026, 11, 1, 15, 0, 0),
    line: (t, r, tpl) =>
      `${tpl.l === "E" ? "E" : tpl.l === "W" ? "W" : "I"}${stamp(t, "klog")}       1 ${tpl.m(r)}`,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `event.go:${r.int(280, 300)}] "Event occurred" object="default/web-${r.hex(9)}-${r.hex(5)}" fieldPath="" kind="Pod" apiVersion="v1" type="Normal" reason="Scheduled"`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `replica_set.go:${r.int(600, 700)}] "Finished syncing" kind="ReplicaSet" key="default/web-${r.hex(9)}" duration="${r.int(10, 900)}.${r.int(100, 999)}µs"`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `controller_utils.go:${r.int(180, 200)}] "Controller expectations fulfilled" expectations={"add":0,"del":0}`,
      },
      {
        w: 0.5,
        l: "W",
        m: (r) =>
          `reflector.go:${r.int(530, 560)}] k8s.io/client-go/informers/factory.go:160: watch of *v1.Pod ended with: an error on the server ("unable to decode an event from the watch stream") has prevented the request from succeeding`,
      },
    ],
    plants: [
      {
        at: 0.5,
        l: "E",
        m: 'leaderelection.go:332] error retrieving resource lock kube-system/kube-controller-manager: Get "https://10.0.0.1:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager": context deadline exceeded',
      },
    ],
  },
  {
    id: "github-actions",
    hint: "gh run view 8812345 --log",
    start: Date.UTC(2026, 10, 2, 9, 0, 0),
    prefix: (t) => `${stamp(t, "iso-7-z")} `,
    step: [50, 400],
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `npm warn deprecated ${r.pick(["inflight", "glob", "rimraf", "are-we-there-yet"])}@${r.int(1, 8)}.${r.int(0, 9)}.${r.int(0, 9)}: This module is not supported, and leaks memory.`,
      },
      {
        w: 6,
        l: "I",
        m: (r) =>
          `  ✓ src/${r.pick(["cart", "orders", "users"])}/${r.pick(["model", "service", "routes"])}.test.ts (${r.int(2, 40)} tests) ${r.int(5, 900)}ms`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `##[group]Run ${r.pick(["actions/checkout@v4", "actions/setup-node@v4", "pnpm install --frozen-lockfile", "pnpm test"])}`,
      },
      { w: 3, l: "I", m: (_r) => `##[endgroup]` },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `Progress: resolved ${r.int(100, 1200)}, reused ${r.int(100, 1200)}, downloaded 0, added ${r.int(0, 1200)}`,
      },
    ],
    plants: [
      { at: 0.72, l: "E", m: "##[error]Process completed with exit code 1." },
      { at: 0.7, l: "E", m: " FAIL  src/orders/checkout.test.ts > checkout > rejects an expired card" },
    ],
  },
  {
    id: "windows-cbs",
    hint: "type C:\\Windows\\Logs\\CBS\\CBS.log",
    start: Date.UTC(2016, 8, 28, 4, 30, 30),
    prefix: (t, _r, l) =>
      `${stamp(t, "cbs")}, ${(l === "E" ? "Error" : l === "W" ? "Warning" : "Info").padEnd(22, " ")}`,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `CBS    Loaded Servicing Stack v6.1.7601.${r.int(23000, 23999)} with Core: C:\\Windows\\winsxs\\amd64_microsoft-windows-servicingstack_31bf3856ad364e35_6.1.7601.${r.int(23000, 23999)}_none_${r.hex(16)}\\cbscore.dll`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `CSI    0000${r.hex(4)}@2016/9/28:04:30:${r.int(10, 59)}.${r.int(100, 999)} WcpInitialize (wcp.dll version 0.0.0.6) called (stack @0x7fef${r.hex(7)} @0x7fef${r.hex(7)})`,
      },
      { w: 4, l: "I", m: (_r) => `CBS    Ending TrustedInstaller initialization.` },
      { w: 4, l: "I", m: (_r) => `CBS    SQM: Initializing online with Windows opt-in: False` },
      { w: 0.4, l: "W", m: (_r) => `CBS    Unrecognized packageExtended attribute.` },
    ],
    plants: [
      {
        at: 0.5,
        l: "E",
        m: "CBS    Failed to internally open package. [HRESULT = 0x800f0805 - CBS_E_INVALID_PACKAGE]",
      },
    ],
  },
  {
    id: "zookeeper",
    hint: "cat zookeeper.out",
    start: Date.UTC(2015, 6, 29, 17, 41, 44),
    prefix: (t, _r, l) => `${stamp(t, "iso-comma")} - ${LV.padded[l]} `,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `[NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:NIOServerCnxn@1001] - Closed socket connection for client /${r.ip()}:${r.int(30000, 60000)} which had sessionid 0x${r.hex(15)}`,
      },
      {
        w: 5,
        l: "I",
        m: (r) =>
          `[NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:NIOServerCnxnFactory@197] - Accepted socket connection from /${r.ip()}:${r.int(30000, 60000)}`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `[CommitProcessor:1:ZooKeeperServer@595] - Established session 0x${r.hex(15)} with negotiated timeout 10000 for client /${r.ip()}:${r.int(30000, 60000)}`,
      },
      {
        w: 0.6,
        l: "W",
        m: (_r) => `[SendWorker:188978561024:QuorumCnxManager$SendWorker@688] - Send worker leaving thread`,
      },
    ],
    plants: [
      {
        at: 0.5,
        l: "E",
        m: "[QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:QuorumPeer@784] - Unexpected exception causing shutdown while sock still open",
      },
    ],
  },
  {
    id: "openstack",
    hint: "cat nova-api.log",
    start: Date.UTC(2017, 4, 16, 0, 0, 0),
    prefix: (t, r, l) =>
      `nova-api.log.1.2017-05-16_13:53:08 ${stamp(t, "iso-ms")} ${r.int(25700, 25800)} ${LV.plain[l]} `,
    templates: [
      {
        w: 6,
        l: "I",
        m: (r) =>
          `nova.osapi_compute.wsgi.server [req-${r.uuid()} 113d3a99c3da401fbd62cc2caa5b96d2 54fadb412c4e40cdbaed9335e4c35a9e - - -] ${r.ip()} "GET /v2/54fadb412c4e40cdbaed9335e4c35a9e/servers/detail HTTP/1.1" status: 200 len: ${r.int(1000, 2000)} time: 0.${r.int(1000000, 9999999)}`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `nova.compute.resource_tracker [req-${r.uuid()} - - - - -] Final resource view: name=cp-1.cloud phys_ram=64403MB used_ram=${r.int(2000, 9000)}MB phys_disk=15GB used_disk=${r.int(0, 9)}GB total_vcpus=16 used_vcpus=${r.int(0, 9)} pci_stats=[]`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `nova.metadata.wsgi.server [-] ${r.ip()},${r.ip()} "GET /openstack/2013-10-17/meta_data.json HTTP/1.1" status: 200 len: ${r.int(900, 1100)} time: 0.${r.int(1000000, 9999999)}`,
      },
      {
        w: 0.4,
        l: "W",
        m: (r) =>
          `nova.compute.manager [req-${r.uuid()} - - - - -] While synchronizing instance power states, found ${r.int(1, 4)} instances in the database and 0 instances on the hypervisor.`,
      },
    ],
    plants: [
      {
        at: 0.5,
        l: "E",
        m: "nova.compute.manager [instance: 3edec1e4-9678-4a3a-a21b-a145a4ee5e61] Instance failed to spawn: libvirtError: internal error: qemu unexpectedly closed the monitor",
      },
    ],
  },
  {
    id: "proxifier",
    hint: "cat Proxifier.log",
    start: Date.UTC(2026, 9, 30, 16, 49, 6),
    line: (t, r, tpl) => `[${stamp(t, "proxifier")}] ${tpl.m(r)}`,
    templates: [
      {
        w: 6,
        l: "I",
        m: (_r) =>
          `chrome.exe - proxy.cse.cuhk.edu.hk:5070 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS`,
      },
      {
        w: 6,
        l: "I",
        m: (r) =>
          `chrome.exe - proxy.cse.cuhk.edu.hk:5070 close, ${r.int(100, 9999)} bytes (${r.int(1, 9)}.${r.int(10, 99)} KB) sent, ${r.int(100, 99999)} bytes (${r.int(1, 99)}.${r.int(10, 99)} KB) received, lifetime ${r.int(0, 59)}:${String(r.int(0, 59)).padStart(2, "0")}`,
      },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `Skype.exe - 40.${r.int(10, 99)}.${r.int(1, 250)}.${r.int(1, 250)}:443 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS`,
      },
      {
        w: 0.4,
        l: "W",
        m: (r) =>
          `chrome.exe - ${r.pick(["ssl.gstatic.com", "www.google.com", "clients4.google.com"])}:443 error : Could not connect through proxy proxy.cse.cuhk.edu.hk:5070 - Proxy server cannot establish a connection with the target, status code 403`,
      },
    ],
    plants: [
      {
        at: 0.5,
        l: "E",
        m: "Dropbox.exe - block.dropbox.com:443 error : A connection request was canceled before the completion.",
      },
    ],
  },
  {
    id: "bgl",
    hint: "cat BGL.log",
    start: Date.UTC(2005, 5, 3, 15, 42, 50),
    line: (t, r, tpl) => {
      const node = `R${String(r.int(0, 7)).padStart(2, "0")}-M${r.int(0, 1)}-N${r.int(0, 9)}-C:J${r.int(10, 17)}-U${r.int(10, 11)}`;
      return `${tpl.l === "E" ? "KERNDTLB" : "-"} ${Math.floor(t / 1000)} ${stamp(t, "bgl").slice(0, 10).replaceAll("-", ".")} ${node} ${stamp(t, "bgl")} ${node} RAS KERNEL ${tpl.l === "E" ? "FATAL" : "INFO"} ${tpl.m(r)}`;
    },
    templates: [
      { w: 6, l: "I", m: (_r) => `instruction cache parity error corrected` },
      { w: 4, l: "I", m: (r) => `generating core.${r.int(1000, 9999)}` },
      {
        w: 3,
        l: "I",
        m: (r) =>
          `${r.int(1, 9)} ddr error(s) detected and corrected on rank 0, symbol ${r.int(0, 30)}, bit ${r.int(0, 7)}`,
      },
      { w: 2, l: "I", m: (r) => `CE sym ${r.int(0, 30)}, at 0x${r.hex(8)}, mask 0x${r.hex(2)}` },
    ],
    plants: [{ at: 0.5, l: "E", m: "data TLB error interrupt" }],
  },
  {
    id: "dmesg",
    hint: "dmesg",
    start: 0,
    line: (t, r, tpl) =>
      `[${String(Math.floor(t / 1000)).padStart(5, " ")}.${String(r.int(0, 999999)).padStart(6, "0")}] ${tpl.m(r)}`,
    step: [1, 120],
    templates: [
      {
        w: 5,
        l: "I",
        m: (r) =>
          `usb ${r.int(1, 3)}-${r.int(1, 4)}: new high-speed USB device number ${r.int(2, 30)} using xhci_hcd`,
      },
      {
        w: 5,
        l: "I",
        m: (r) => `EXT4-fs (sda${r.int(1, 3)}): mounted filesystem with ordered data mode. Quota mode: none.`,
      },
      {
        w: 4,
        l: "I",
        m: (r) =>
          `audit: type=1400 audit(${r.int(1.7e9, 1.8e9)}.${r.int(100, 999)}:${r.int(10, 999)}): apparmor="STATUS" operation="profile_load" profile="unconfined" name="/usr/bin/man" pid=${r.int(100, 999)} comm="apparmor_parser"`,
      },
      { w: 3, l: "I", m: (r) => `IPv6: ADDRCONF(NETDEV_CHANGE): veth${r.hex(7)}: link becomes ready` },
      {
        w: 0.4,
        l: "W",
        m: (r) =>
          `ACPI Warning: SystemIO range 0x000000000000${r.hex(4)}-0x000000000000${r.hex(4)} conflicts with OpRegion`,
      },
    ],
    plants: [{ at: 0.5, l: "E", m: "BUG: unable to handle page fault for address: ffffb1c2c0a3d000" }],
  },
];

function buildLog(fam) {
  const r = rng(`log-${fam.id}`);
  const n = fam.lines ?? LINES;
  const plants = [...fam.plants].map((p) => ({ ...p, index: Math.floor(p.at * n) }));
  const lines = [];
  const gold = [];
  const seenWarn = new Set();
  let t = fam.start;
  const [lo, hi] = fam.step ?? [20, 2500];
  const render = (tpl) => (fam.line ? fam.line(t, r, tpl) : `${fam.prefix(t, r, tpl.l)}${tpl.m(r)}`);
  for (let i = 0; i < n; i++) {
    t += r.int(lo, hi);
    for (const p of plants.filter((q) => q.index === i)) {
      const text = p.raw ?? (p.line ? p.line(t) : render({ l: p.l, m: () => p.m, logger: "worker" }));
      lines.push(text, ...(p.trace ?? []));
      gold.push({ text, query: (p.m ?? text).slice(0, 60) });
    }
    const tpl = r.weighted(fam.templates);
    const line = render(tpl);
    lines.push(line);
    if ((tpl.l === "W" || tpl.l === "E") && !seenWarn.has(tpl)) {
      seenWarn.add(tpl);
      gold.push({ text: line, query: line.slice(-50) });
    }
  }
  return {
    id: `log-${fam.id}`,
    kind: "log",
    family: `log:${fam.id}`,
    hint: fam.hint,
    ext: "log",
    source: `seeded ${fam.id} log generator (${n} lines, native clock style)`,
    content: `${lines.join("\n")}\n`,
    gold,
  };
}

/** Every log family item. */
export function logItems() {
  return FAMILIES.map(buildLog);
}
