/** The account a zoo client logs in with: LAB_DB_USER (a cell's own), else the lab's shared one. */
final class ZooAccount {
    private ZooAccount() { }

    static String user() {
        String user = System.getenv("LAB_DB_USER");
        return user == null || user.isEmpty() ? "sbtest" : user;
    }
}
