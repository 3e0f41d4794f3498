<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>redrive::ui::AccessibleParts</name>
    <message>
        <source>Clear %1</source>
        <translation type="unfinished"></translation>
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
</TS>
