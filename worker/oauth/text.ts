/** The words of the hosted sign-in, consent and connected-apps pages, in the five locales. */
import type { LOCALES } from "../../shared/schemas";

export type Locale = (typeof LOCALES)[number];

export interface Text {
  username: string;
  password: string;
  signIn: string;
  cancel: string;
  wrongCredentials: string;
  tooManyAttempts: string;
  connectTitle: (client: string) => string;
  connectIntro: (client: string) => string;
  returnTo: (host: string) => string;
  consentTitle: (client: string, restaurant: string) => string;
  signedInAs: string;
  willBeAble: (client: string) => string;
  abilities: [string, string, string];
  disconnectLater: string;
  allow: string;
  deny: string;
  appsTitle: string;
  appsIntro: string;
  owner: string;
  connectedOn: (date: string) => string;
  disconnect: string;
  disconnected: (client: string) => string;
  noApps: string;
  signOut: string;
  invalidTitle: string;
  unknownClient: string;
  wrongRedirect: string;
  expired: string;
  badRequest: string;
  busy: string;
  backToApp: string;
}

const en: Text = {
  username: "Username",
  password: "Password",
  signIn: "Sign in",
  cancel: "Cancel",
  wrongCredentials: "The username or the password is not right. Check both and try again.",
  tooManyAttempts: "Too many sign-in attempts. Wait a minute, then try again.",
  connectTitle: (client) => `Connect ${client} to your restaurant`,
  connectIntro: (client) =>
    `Sign in with your restaurant's username and password to let ${client} work with your reservations.`,
  returnTo: (host) => `Afterwards you go back to ${host}.`,
  consentTitle: (client, restaurant) => `Allow ${client} to work with ${restaurant}?`,
  signedInAs: "Signed in as",
  willBeAble: (client) => `${client} will be able to:`,
  abilities: [
    "read and change your restaurant's details, rooms, tables, services and closures",
    "see, make and change reservations, with your guests' names and contact details",
    "be told about new and changed reservations at its own address",
  ],
  disconnectLater: "You can disconnect it at any time on the Connected apps page.",
  allow: "Allow",
  deny: "Deny",
  appsTitle: "Connected apps",
  appsIntro:
    "Sign in with your restaurant's username and password to see the apps connected to it and disconnect them.",
  owner: "Created your restaurant's account: it cannot be disconnected here.",
  connectedOn: (date) => `Connected on ${date}`,
  disconnect: "Disconnect",
  disconnected: (client) =>
    `${client} is disconnected: its access to your restaurant and its notifications have ended.`,
  noApps: "No app is connected to your restaurant.",
  signOut: "Sign out",
  invalidTitle: "This link cannot connect an app",
  unknownClient: "The app that sent you here is not known to us.",
  wrongRedirect: "The app that sent you here did not give the return address it registered with us.",
  expired: "This page has expired or was opened elsewhere.",
  badRequest: "The app sent an incomplete or malformed request.",
  busy: "Your restaurant's data is being moved right now. Try again in a minute.",
  backToApp: "Go back to the app and start again. If it keeps happening, tell the app's makers.",
};

const it: Text = {
  username: "Nome utente",
  password: "Password",
  signIn: "Accedi",
  cancel: "Annulla",
  wrongCredentials: "Il nome utente o la password non sono corretti. Controlla entrambi e riprova.",
  tooManyAttempts: "Troppi tentativi di accesso. Attendi un minuto e riprova.",
  connectTitle: (client) => `Collega ${client} al tuo ristorante`,
  connectIntro: (client) =>
    `Accedi con il nome utente e la password del tuo ristorante per permettere a ${client} di lavorare con le tue prenotazioni.`,
  returnTo: (host) => `Dopo tornerai su ${host}.`,
  consentTitle: (client, restaurant) => `Permetti a ${client} di lavorare con ${restaurant}?`,
  signedInAs: "Accesso effettuato come",
  willBeAble: (client) => `${client} potrà:`,
  abilities: [
    "leggere e modificare i dati, le sale, i tavoli, i servizi e le chiusure del ristorante",
    "vedere, creare e modificare prenotazioni, con nomi e recapiti dei tuoi ospiti",
    "ricevere avvisi di prenotazioni nuove e modificate al proprio indirizzo",
  ],
  disconnectLater: "Puoi scollegarla in qualsiasi momento dalla pagina App collegate.",
  allow: "Consenti",
  deny: "Rifiuta",
  appsTitle: "App collegate",
  appsIntro:
    "Accedi con il nome utente e la password del tuo ristorante per vedere le app collegate e scollegarle.",
  owner: "Ha creato l'account del tuo ristorante: non si può scollegare da qui.",
  connectedOn: (date) => `Collegata il ${date}`,
  disconnect: "Scollega",
  disconnected: (client) =>
    `${client} è scollegata: il suo accesso al ristorante e i suoi avvisi sono terminati.`,
  noApps: "Nessuna app è collegata al tuo ristorante.",
  signOut: "Esci",
  invalidTitle: "Questo link non può collegare un'app",
  unknownClient: "L'app che ti ha mandato qui non ci è nota.",
  wrongRedirect:
    "L'app che ti ha mandato qui non ha indicato l'indirizzo di ritorno registrato presso di noi.",
  expired: "Questa pagina è scaduta o è stata aperta altrove.",
  badRequest: "L'app ha inviato una richiesta incompleta o non valida.",
  busy: "I dati del tuo ristorante vengono spostati proprio ora. Riprova tra un minuto.",
  backToApp: "Torna all'app e ricomincia. Se succede ancora, avvisa chi ha creato l'app.",
};

const fr: Text = {
  username: "Nom d'utilisateur",
  password: "Mot de passe",
  signIn: "Se connecter",
  cancel: "Annuler",
  wrongCredentials: "Le nom d'utilisateur ou le mot de passe est incorrect. Vérifiez les deux et réessayez.",
  tooManyAttempts: "Trop de tentatives de connexion. Attendez une minute, puis réessayez.",
  connectTitle: (client) => `Relier ${client} à votre restaurant`,
  connectIntro: (client) =>
    `Connectez-vous avec le nom d'utilisateur et le mot de passe de votre restaurant pour permettre à ${client} de gérer vos réservations.`,
  returnTo: (host) => `Vous reviendrez ensuite sur ${host}.`,
  consentTitle: (client, restaurant) => `Autoriser ${client} à travailler avec ${restaurant} ?`,
  signedInAs: "Connecté en tant que",
  willBeAble: (client) => `${client} pourra :`,
  abilities: [
    "lire et modifier les informations, salles, tables, services et fermetures de votre restaurant",
    "voir, créer et modifier des réservations, avec les noms et coordonnées de vos clients",
    "être averti des réservations nouvelles et modifiées à sa propre adresse",
  ],
  disconnectLater: "Vous pouvez la déconnecter à tout moment depuis la page Applications connectées.",
  allow: "Autoriser",
  deny: "Refuser",
  appsTitle: "Applications connectées",
  appsIntro:
    "Connectez-vous avec le nom d'utilisateur et le mot de passe de votre restaurant pour voir les applications qui y sont reliées et les déconnecter.",
  owner: "A créé le compte de votre restaurant : elle ne peut pas être déconnectée ici.",
  connectedOn: (date) => `Connectée le ${date}`,
  disconnect: "Déconnecter",
  disconnected: (client) =>
    `${client} est déconnectée : son accès à votre restaurant et ses notifications ont pris fin.`,
  noApps: "Aucune application n'est reliée à votre restaurant.",
  signOut: "Se déconnecter",
  invalidTitle: "Ce lien ne peut pas relier une application",
  unknownClient: "L'application qui vous a envoyé ici nous est inconnue.",
  wrongRedirect:
    "L'application qui vous a envoyé ici n'a pas donné l'adresse de retour enregistrée chez nous.",
  expired: "Cette page a expiré ou a été ouverte ailleurs.",
  badRequest: "L'application a envoyé une demande incomplète ou mal formée.",
  busy: "Les données de votre restaurant sont en cours de déplacement. Réessayez dans une minute.",
  backToApp: "Revenez à l'application et recommencez. Si cela se reproduit, prévenez ses éditeurs.",
};

const de: Text = {
  username: "Benutzername",
  password: "Passwort",
  signIn: "Anmelden",
  cancel: "Abbrechen",
  wrongCredentials:
    "Benutzername oder Passwort stimmen nicht. Prüfen Sie beides und versuchen Sie es erneut.",
  tooManyAttempts: "Zu viele Anmeldeversuche. Warten Sie eine Minute und versuchen Sie es dann erneut.",
  connectTitle: (client) => `${client} mit Ihrem Restaurant verbinden`,
  connectIntro: (client) =>
    `Melden Sie sich mit Benutzername und Passwort Ihres Restaurants an, damit ${client} mit Ihren Reservierungen arbeiten kann.`,
  returnTo: (host) => `Danach kehren Sie zu ${host} zurück.`,
  consentTitle: (client, restaurant) => `${client} erlauben, mit ${restaurant} zu arbeiten?`,
  signedInAs: "Angemeldet als",
  willBeAble: (client) => `${client} kann dann:`,
  abilities: [
    "die Angaben, Räume, Tische, Angebote und Schließzeiten Ihres Restaurants lesen und ändern",
    "Reservierungen sehen, anlegen und ändern, mit Namen und Kontaktdaten Ihrer Gäste",
    "über neue und geänderte Reservierungen an eine eigene Adresse benachrichtigt werden",
  ],
  disconnectLater: "Sie können die Verbindung jederzeit auf der Seite Verbundene Apps trennen.",
  allow: "Erlauben",
  deny: "Ablehnen",
  appsTitle: "Verbundene Apps",
  appsIntro:
    "Melden Sie sich mit Benutzername und Passwort Ihres Restaurants an, um die verbundenen Apps zu sehen und zu trennen.",
  owner: "Hat das Konto Ihres Restaurants angelegt: Diese App lässt sich hier nicht trennen.",
  connectedOn: (date) => `Verbunden am ${date}`,
  disconnect: "Trennen",
  disconnected: (client) =>
    `${client} ist getrennt: Ihr Zugriff auf Ihr Restaurant und ihre Benachrichtigungen sind beendet.`,
  noApps: "Mit Ihrem Restaurant ist keine App verbunden.",
  signOut: "Abmelden",
  invalidTitle: "Über diesen Link lässt sich keine App verbinden",
  unknownClient: "Die App, die Sie hierher geschickt hat, ist uns nicht bekannt.",
  wrongRedirect:
    "Die App, die Sie hierher geschickt hat, hat nicht die bei uns registrierte Rücksprungadresse angegeben.",
  expired: "Diese Seite ist abgelaufen oder wurde anderswo geöffnet.",
  badRequest: "Die App hat eine unvollständige oder fehlerhafte Anfrage gesendet.",
  busy: "Die Daten Ihres Restaurants werden gerade verschoben. Versuchen Sie es in einer Minute erneut.",
  backToApp:
    "Kehren Sie zur App zurück und beginnen Sie erneut. Wenn es wieder passiert, informieren Sie die Anbieter der App.",
};

const es: Text = {
  username: "Nombre de usuario",
  password: "Contraseña",
  signIn: "Iniciar sesión",
  cancel: "Cancelar",
  wrongCredentials:
    "El nombre de usuario o la contraseña no son correctos. Revisa ambos e inténtalo de nuevo.",
  tooManyAttempts: "Demasiados intentos de inicio de sesión. Espera un minuto y vuelve a intentarlo.",
  connectTitle: (client) => `Conecta ${client} con tu restaurante`,
  connectIntro: (client) =>
    `Inicia sesión con el nombre de usuario y la contraseña de tu restaurante para que ${client} pueda trabajar con tus reservas.`,
  returnTo: (host) => `Después volverás a ${host}.`,
  consentTitle: (client, restaurant) => `¿Permitir que ${client} trabaje con ${restaurant}?`,
  signedInAs: "Sesión iniciada como",
  willBeAble: (client) => `${client} podrá:`,
  abilities: [
    "leer y cambiar los datos, salas, mesas, servicios y cierres de tu restaurante",
    "ver, crear y cambiar reservas, con los nombres y datos de contacto de tus clientes",
    "recibir avisos de reservas nuevas y cambiadas en su propia dirección",
  ],
  disconnectLater: "Puedes desconectarla cuando quieras en la página Apps conectadas.",
  allow: "Permitir",
  deny: "Denegar",
  appsTitle: "Apps conectadas",
  appsIntro:
    "Inicia sesión con el nombre de usuario y la contraseña de tu restaurante para ver las apps conectadas y desconectarlas.",
  owner: "Creó la cuenta de tu restaurante: no se puede desconectar desde aquí.",
  connectedOn: (date) => `Conectada el ${date}`,
  disconnect: "Desconectar",
  disconnected: (client) =>
    `${client} está desconectada: su acceso a tu restaurante y sus avisos han terminado.`,
  noApps: "No hay ninguna app conectada a tu restaurante.",
  signOut: "Cerrar sesión",
  invalidTitle: "Este enlace no puede conectar una app",
  unknownClient: "No conocemos la app que te ha enviado aquí.",
  wrongRedirect:
    "La app que te ha enviado aquí no ha indicado la dirección de vuelta que registró con nosotros.",
  expired: "Esta página ha caducado o se abrió en otro lugar.",
  badRequest: "La app ha enviado una solicitud incompleta o mal formada.",
  busy: "Los datos de tu restaurante se están moviendo ahora mismo. Inténtalo de nuevo en un minuto.",
  backToApp: "Vuelve a la app y empieza de nuevo. Si vuelve a ocurrir, avisa a quienes la hacen.",
};

export const TEXT: Record<Locale, Text> = { en, it, fr, de, es };
