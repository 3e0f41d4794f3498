<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>redrive::ui::ApprovalModel</name>
    <message>
        <source>Your own request: another operator must decide it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ticket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Risk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires in</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ApprovalsController</name>
    <message>
        <source>You requested this replay; another operator must decide it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a request to see what it would do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 would be sent again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Needs approval because: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
You requested this replay; another operator must decide it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the frozen selection…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The frozen selection could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frozen selection: %1 shown (the first page of %2), exactly as it will be replayed if approved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frozen selection: %1, exactly as it will be replayed if approved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No replay requests are waiting for approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 replay request waits for a decision. Check the effect and the frozen selection below, then approve or reject with a reason of your own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln replay requests wait for a decision. Check the effect and the frozen selection below, then approve or reject with a reason of your own.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>1 replay request waits for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n replay requests wait for your approval</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Approve replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 requested by %2: %3.
Their reason: %4

%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve replay #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject replay #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The approval of replay #%1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 was not approved: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rejection of replay #%1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 was not rejected: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ApprovalsView</name>
    <message>
        <source>Replay requests waiting for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frozen selection of the request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the request would do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve the selected request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject the selected request</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::AuditController</name>
    <message>
        <source>no signed checkpoint: the receiver has no audit key (admin.audit_key_file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no signed checkpoint: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export audit evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence bundles (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The audit log could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no signed checkpoint: this profile has no admin API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver&apos;s checkpoint is malformed (%1): nothing in it is trusted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver&apos;s checkpoint signature does NOT verify: nothing in it is trusted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver&apos;s audit key CHANGED: this profile pinned key %1, but the checkpoint is signed by key %2. Nothing it signs is trusted until you confirm the new key with whoever runs the receiver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver&apos;s checkpoint is NOT trusted (see the warning)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chain could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust a new audit key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver now signs its audit checkpoints with another key. Trust it only when whoever runs the receiver confirms the key was rotated (`redrived audit checkpoint` prints its id). A key you did not expect can mean someone else is answering for the receiver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust the new key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The pinned key was forgotten; the receiver&apos;s current key is pinned on this check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No checkpoint saved: the chain is not known to be intact (see the status above).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>signed by receiver key %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computed by this console, not signed by the receiver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint #%1 is already saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint #%1 saved on this computer (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported 1 filtered audit entry to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported 1 audit entry to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln filtered audit entries to %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln audit entries to %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Evidence was not exported: it needs a checkpoint signed by the receiver with the pinned key, and the last check had none (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the chain is not intact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the evidence for %1 .. %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence was not exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence was written to %1, but it does NOT verify: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for 1 entry written to %1 (with %2). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Evidence for %Ln entries written to %1 (with %2). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::AuditModel</name>
    <message>
        <source>Seq</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
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
        <source>Hash</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::AuditView</name>
    <message>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact token name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact action, e.g. replay_requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact target, e.g. replay:12 or event:7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text in reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entries whose reason contains this text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust new key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export evidence…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any time</source>
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
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the audit filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit key warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust the receiver&apos;s new audit key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit chain status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the chain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last audit action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a checkpoint of the audit chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the chain&apos;s current head on this computer; later refreshes prove nothing up to it changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the filtered audit entries as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export audit evidence for the time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The entries of the chosen time range, linked to the receiver&apos;s signed checkpoint, with a README on checking them with redrive --verify-evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit log entries</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ChainStatusText</name>
    <message>
        <source>Chain broken at #%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chain intact to #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · checkpoint #%1 verified (key %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · the receiver&apos;s checkpoint #%1 does NOT match: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No saved checkpoints. &quot;Save checkpoint&quot; keeps the chain&apos;s head on this computer, so a later rewrite or a cut-off tail is caught.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved checkpoint #%1 (taken %2): the tail was cut off, first missing entry #%3 — %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved checkpoint #%1 (taken %2): changed, first changed entry #%3 — %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing changed up to the saved checkpoint #%1 (taken %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Nothing changed up to any of the %n saved checkpoint(s) (latest #%1, taken %2).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConsoleController</name>
    <message>
        <source>no admin API (read-only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only (no admin API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 requested; it waits for an operator&apos;s approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 requested (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 paused: its deliveries wait until it is resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation of %1 started; the Reconciliation page follows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database can be reached again (it could not for %1); the pages were refreshed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::MainWindow</name>
    <message>
        <source>Receiver warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Disconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destinations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find event…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show times in &amp;UTC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rejected requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;plays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;udit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Des&amp;tinations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconc&amp;iliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected — Connection › Connect… (Ctrl+Shift+O)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReconcileController</name>
    <message numerus="yes">
        <source>%n source(s) reconcile with their provider</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; the last run of %n failed.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayHistoryController</name>
    <message>
        <source>Replay requests, newest first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a replay request to see its deliveries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No replay requests yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests, newest first. Select one to see its deliveries; Enter on a delivery opens its event at the replay&apos;s attempt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More deliveries of replay #%1 could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 · %2
Requested by %3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (ticket %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Approved by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Approved by %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery %1 no longer exists (retention may have removed it).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayItem</name>
    <message>
        <source>not sent yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queued for delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayItemsModel</name>
    <message>
        <source>Press Enter or double-click to open event %1 at this replay&apos;s attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The delivery no longer exists (retention may have removed it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the selection was frozen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As it is now (the receiver no longer keeps the frozen flag)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes — may have acted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status at request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status at freeze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome unknown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayListModel</name>
    <message>
        <source>%L1 succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln deliveries</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>waiting for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>executing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>halted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for approval: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved: %1 about to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved by %1: %2 about to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>executing: %L1 of %L2 sent · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>completed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>halted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too many of its first attempts failed; %L1 not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired: it was not approved or started in time; nothing was sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent yet: waiting their turn or queued for delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay attempt finished (succeeded or failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not replayed: the delivery vanished, was in flight or was queued by another replay when its turn came</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decided by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ticket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decided</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplaysView</name>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries of the selected replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome of the selected replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh replay requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload the replay requests (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the selected delivery&apos;s event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the event on the Events page, at this replay&apos;s attempt (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ShortcutsDialog</name>
    <message>
        <source>%1 menu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everywhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alt and the underlined letter opens a page or moves to a field. Tab and Shift+Tab move between controls; in a list, the arrow keys choose a row and Menu opens its actions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
