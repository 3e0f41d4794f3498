<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>redrive::main</name>
    <message>
        <source>Connect with the named profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --profile: open on this page once connected (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PAGE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the connection profile described by FILE (JSON, no secrets) and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the admin API token from standard input. With --import-profile: store it in the keychain. With --profile: use it for this run only; it is stored nowhere (for machines without a keychain).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-check an evidence bundle (the receiver&apos;s signature, body hash, audit hash links, checkpoint signature, bundle hash), print what was checked and exit: 0 when intact, 1 with the first problem, 2 for bad arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --verify-evidence: the receiver key the bundle must be signed with: 64 hex digits, base64, or a file holding it, a PEM public key or a checkpoint (redrived audit checkpoint --out FILE).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE|HEX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --verify-evidence: the id (16 hex digits) of the receiver key the bundle must be signed with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: %1 is larger than any evidence bundle (%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence FAILED verification: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence intact (NOT signed by a receiver)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence intact (signed by the pinned receiver key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence intact (signed, key not pinned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: cannot read the token from standard input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --token-stdin given but standard input held no token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redrive operations console: browse webhook events and request audited replays.
Manual: redrive(1); the receiver: redrived(8).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --public-key and --key-id go with --verify-evidence FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --token-stdin goes with --profile NAME or --import-profile FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --page must be one of: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::AccessibleParts</name>
    <message>
        <source>Clear %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConnectionDialog</name>
    <message>
        <source>The API token was handed over for this run only: it is used for this connection and stored nowhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. production-eu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>production, staging, …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leave empty to use the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin API address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional PEM file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver configuration file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional copy of redrived.toml, for projected retry times</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin API token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remember the password and token in the system keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warn when a standby is behind by more than (seconds)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seconds, when the database is a hot standby</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to a Redrive receiver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQLite file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL TLS mode (sslmode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQLite databases (*.db *.sqlite);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS (sslmode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Standby lag warning (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> No keychain is available on this desktop.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A token for this profile is stored in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secrets you type are kept in the system keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No token is stored for this profile yet; paste it above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is available on this desktop. Passwords and tokens you type are used for this session only and are not stored anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment colour</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConnectionErrors</name>
    <message>
        <source>There is no database file at %1. Check the path, and that the receiver has started at least once (it creates the file).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a SQLite database. Choose the file named in the receiver&apos;s [storage] url.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file %1 cannot be opened for reading. Check that your user may read it and the folder it is in (the WAL files live beside it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is busy. Try again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file %1 could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL at %1 rejected the password for user &quot;%2&quot;. Enter the password again (it replaces the one in the keychain).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL at %1 asks for a password and none is stored for this profile. Enter it in the password field.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host name &quot;%1&quot; does not resolve. Check the spelling, or use an IP address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing accepts connections at %1. PostgreSQL is not running there, listens on another port, or a firewall refuses the connection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be reached in time. The host may be down, or a VPN or firewall is in the way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 does not offer TLS, but the profile requires it (sslmode=%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The TLS connection to %1 failed: the server&apos;s certificate does not match the CA certificate or host name in the profile (sslmode=%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 has no database named &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 has no user named &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 does not accept this user from this machine (pg_hba.conf), or only over TLS. Ask the database administrator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User &quot;%1&quot; may not read the Redrive tables. Grant it SELECT on the schema.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to PostgreSQL at %1 failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The schema version of the database could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Redrive database, or it was never migrated. Run `redrived --config FILE migrate` for it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database uses schema version %1, older than this console&apos;s %2. Upgrade the receiver and run `redrived --config FILE migrate`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database uses schema version %1, newer than this console understands (%2). Install the console that matches the receiver&apos;s version.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConnectionProfile</name>
    <message>
        <source>Give the profile a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the environment (for example production or staging).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the receiver&apos;s SQLite database file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the PostgreSQL host name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The port must be between 1 and 65535.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the database name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sslmode must be one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replica lag warning must be a whole number of seconds from 1 to %L1 (24 hours); the default is %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API address must look like https://host:8081</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>http:// would send the API token unencrypted to %1. Plain HTTP is accepted only for this machine (localhost, 127.0.0.1, ::1); use https://%1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver configuration file %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CA certificate file %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sslmode=verify-ca checks who issued the certificate but does not check that it names %1: any certificate from that CA is accepted. Prefer verify-full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sslmode=%1 does not check the server&apos;s certificate: a machine in the middle can read the database password and every row. Use verify-full (with the CA certificate) unless the network path is trusted.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::Connector</name>
    <message>
        <source>Reading credentials from the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1 read-only…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver configuration could not be used for retry projections: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the schema version…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API needs a token and none is stored for this profile. Paste the token an administrator created for you (redrived token create).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the admin API who you are…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address answered, but not like a Redrive admin API (whoami had no name and role).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving credentials in the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected, but the credentials were not remembered: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DatabaseWatch</name>
    <message>
        <source>The database cannot be reached since %1. The pages show what was read before then and may be out of date (stale). The console reconnects by itself: next attempt in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database cannot be reached since %1 (%3). The pages show what was read before then and may be out of date (stale). The console reconnects by itself: next attempt in %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DetailController</name>
    <message>
        <source>Export evidence for event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The event could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1 no longer exists (retention may have removed it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The note was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The note was not saved: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking against the receiver&apos;s schema…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The revalidation was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The event was not revalidated: </source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>It passes the schema now: released from quarantine with %Ln deliver(y|ies).</source>
        <translation>
            <numerusform>It passes the schema now: released from quarantine with %Ln delivery.</numerusform>
            <numerusform>It passes the schema now: released from quarantine with %Ln deliveries.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Still invalid against the receiver&apos;s schema (%Ln error(s)); the list shows them as checked now.</source>
        <translation>
            <numerusform>Still invalid against the receiver&apos;s schema (%Ln error); the list shows them as checked now.</numerusform>
            <numerusform>Still invalid against the receiver&apos;s schema (%Ln errors); the list shows them as checked now.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::EnvironmentBanner</name>
    <message>
        <source>Connected to the %1 environment (profile &quot;%2&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventDetailView</name>
    <message>
        <source>Replay this delivery…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export evidence…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downstream</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay this delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explanation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an attempt to see the start of the destination&apos;s response.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payload as a tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payload as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes and audit entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a note for the next person looking at this event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save one JSON file, built and signed by the receiver, with this event, its body, deliveries, attempts, notes, the audit entries that touched it and a signed checkpoint of the audit log. The export is recorded in the audit log; redrive --verify-evidence FILE re-checks the file anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit trail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes &amp;&amp; audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No event selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an event in the list to see its deliveries, attempts and payload.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This delivery is on its way already; there is nothing to replay yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview and request a replay of the selected delivery (Ctrl+R in the list).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no type)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider event ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  (derived from the body digest: the provider sent no id)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Occurred</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Times seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 (last %2; duplicates were recorded, not processed again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (read from the provider&apos;s API, not signed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (not verified)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The secret whose signature matched; with several secrets configured this shows which one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock skew</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 ms (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>provider&apos;s timestamp behind ours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>provider&apos;s timestamp ahead of ours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (the scheme carries no timestamp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Body</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln byte(s), %1, SHA-256 %2</source>
        <translation>
            <numerusform>%Ln byte, %1, SHA-256 %2</numerusform>
            <numerusform>%Ln bytes, %1, SHA-256 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>no content type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Legal hold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes — retention will not delete this event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (in %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (overdue by %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last request was fully sent but no answer came in time: the destination may have acted on it. A replay could apply it twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead-lettered: %1%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency key %1 (the same on every attempt and replay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No route matched this event, so it was not delivered anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
scheduled for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · outcome unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No attempts yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the destination sent no body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The body is %1; shown as text only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No notes yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventTableModel</name>
    <message>
        <source> (ref %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — the request may have been processed; a replay could act twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No route matched this event; nothing was delivered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downstream</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1
Received %Ln time(s) (duplicates were not processed again)</source>
        <translation>
            <numerusform>%1
Received %Ln time (duplicates were not processed again)</numerusform>
            <numerusform>%1
Received %Ln times (duplicates were not processed again)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventsController</name>
    <message>
        <source>The events could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy event ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>About %Ln event(s) (counting…) (matches|match) the filter</source>
        <translation>
            <numerusform>About %Ln event (counting…) matches the filter</numerusform>
            <numerusform>About %Ln events (counting…) match the filter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>About %Ln event(s) (counting…)</source>
        <translation>
            <numerusform>About %Ln event (counting…)</numerusform>
            <numerusform>About %Ln events (counting…)</numerusform>
        </translation>
    </message>
    <message>
        <source>%L1+ events (counting…) match the filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1+ events (counting…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) (matches|match) the filter</source>
        <translation>
            <numerusform>%Ln event matches the filter</numerusform>
            <numerusform>%Ln events match the filter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s)</source>
        <translation>
            <numerusform>%Ln event</numerusform>
            <numerusform>%Ln events</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventsView</name>
    <message>
        <source>Replay selected…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay all matching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview and request a replay of the selected events&apos; deliveries (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview and request a replay of every event the filter matches, not just the visible ones</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay %L1 selected…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More than %L1 new events — click to reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln new event(s) — click to show</source>
        <translation>
            <numerusform>%Ln new event — click to show</numerusform>
            <numerusform>%Ln new events — click to show</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::EvidenceExport</name>
    <message>
        <source>the receiver signs no evidence (admin.audit_key_file is not set in its configuration).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver has no event %1. Does this profile read the receiver&apos;s own database?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver does not offer evidence bundles (an older redrived?).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence was not exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the receiver to build and sign the evidence for event %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver&apos;s answer is not an evidence bundle for event %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the signed bundle and writing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for event %1 was written to %2, but it does NOT verify: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for event %1 written to %2, signed by receiver key %3 (bundle SHA-256 %4…). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::FilterBar</name>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type (prefix*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save view…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Origin filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciled: events a reconciliation run recovered from the provider&apos;s API because their webhook never arrived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From (local time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until (local time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event type filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search event ID, provider ID, downstream reference or key, e.g. order:1042 (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of this view:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::JsonTreeModel</name>
    <message>
        <source>null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>boolean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not JSON (%1 at byte %L2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::KeyLinks</name>
    <message>
        <source>Business keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search events with %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find every event whose %1 is %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::KeysetListModel</name>
    <message>
        <source>the query failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::LocaleFormat</name>
    <message numerus="yes">
        <source>%Ln byte(s)</source>
        <translation>
            <numerusform>%Ln byte</numerusform>
            <numerusform>%Ln bytes</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::OriginMark</name>
    <message>
        <source>%1 · reconciled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, recovered by reconciliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recovered by reconciliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its webhook never reached Redrive: a reconciliation run found it in the provider&apos;s API and recorded it as if it had arrived, then routed and delivered it. A webhook arriving for it later is a duplicate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrived as a webhook from the provider.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ProfileImport</name>
    <message>
        <source>the profile file is not a JSON object (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: secrets do not belong in a profile file; pass the token on standard input with --token-stdin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: unknown key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;colour&quot;: not a colour (use #rrggbb)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give exactly one of &quot;sqlite&quot; or &quot;postgresql&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: cannot import the profile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: profile &quot;%1&quot; saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: profile &quot;%1&quot; saved; its API token is in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: profile &quot;%1&quot; saved, but the API token was NOT stored: %2 (%3). The console will ask for it when connecting.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::Prompter</name>
    <message>
        <source>Reason (recorded in the audit log):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reason</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::RangeEdits</name>
    <message>
        <source>From (local time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until (local time)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReconcileController</name>
    <message numerus="yes">
        <source>%n source(s) reconcile with their provider</source>
        <translation>
            <numerusform>%n source reconcile with their provider</numerusform>
            <numerusform>%n sources reconcile with their provider</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; the last run of %n failed.</source>
        <translation>
            <numerusform>; the last run of %n failed.</numerusform>
            <numerusform>; the last run of %n failed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::ScheduleNote</name>
    <message>
        <source>%1: attempt %2 is due %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The receiver configuration has no destination of that name, so the attempts after it cannot be projected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Only the next attempt is known: add the receiver&apos;s configuration file to the profile to see the projected remaining schedule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 ≈ %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Then, if it keeps failing: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Dead letter after attempt %1, around %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (between %1 and %2 with jitter)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::StatusPalette</name>
    <message>
        <source>succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no route</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP retryable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP permanent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redirect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DNS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Integrity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lease expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::TimeFormat</name>
    <message>
        <source>%1 local (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ValidationPanel</name>
    <message>
        <source>Revalidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schema validation errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where in the body (a JSON pointer) and why the event does not match its schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revalidate this event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the event again against the schema the receiver has now; if it passes it leaves quarantine and is delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the whole body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Quarantined: the body does not match its schema (%Ln error(s)). It is stored and not delivered.</source>
        <translation>
            <numerusform>Quarantined: the body does not match its schema (%Ln error). It is stored and not delivered.</numerusform>
            <numerusform>Quarantined: the body does not match its schema (%Ln errors). It is stored and not delivered.</numerusform>
        </translation>
    </message>
</context>
</TS>
