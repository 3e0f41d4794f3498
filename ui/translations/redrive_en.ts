<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>redrive::ui::AdminClient</name>
    <message>
        <source>The CA certificate file %1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CA certificate file %1 holds no PEM certificate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 gave no HTTP answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 presented a certificate this console does not trust (%2). Check the CA certificate in the profile, and that the address names the host the certificate was issued for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is listening at %1: the receiver&apos;s admin API is not running there, or admin_listen names another address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host name %1 does not resolve. Check the admin API address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 did not answer in time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 closed the connection. If it expects TLS, the address must start with https://.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 could not be reached (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The server said: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver cannot reach its database; try again in %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver cannot reach its database; try again shortly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> If the database went away during this action it may have been recorded: check the page before repeating it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver did not finish in time; its database may be hung.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> This action may still be recorded: check the page before repeating it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request was refused as malformed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The value of &quot;%1&quot; was refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API rejected the token: it is wrong, revoked or expired. Ask an administrator for a new one (redrived token create).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your role does not allow this action; the attempt was recorded in the audit log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API does not know this item (or this address is not a Redrive admin API).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The item changed in the meantime.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API answered HTTP %1.</source>
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
</TS>
